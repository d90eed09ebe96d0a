import { PROJECTIONS, type Projection } from '../record/projections.ts';
import { anchorToken } from './anchors.ts';
import { researchStatusLabel } from './format.ts';
import { byName, type GarmentEntries, type SiteEntry, type SiteIndex } from './site-index.ts';
import { projectionLabel, t } from './strings.ts';
import { displayText } from './text.ts';
import { distinctValues } from '../search/index/search-fields.ts';
import { SEARCH_PAGE_PATH } from '../search/query/search-keys.ts';
import { categoryPath, garmentPath, pagePath } from './urls.ts';

/** One garment on the index: its records by projection, summarised. */
export interface GarmentCardView {
  slug: string;
  title: string;
  href: string;
  brand: string | null;
  category: string;
  /** Only http(s) images; none otherwise (the card shows a placeholder naming the garment). */
  image: { src: string; alt: string } | null;
  /** What a search result shows: the commerce record's from-price and sizes, the technical one's fabric and weight. */
  facts: { label: string; value: string }[];
  /** What listings sort by besides the title: the lowest price (major units) and the main fabric's weight (g/m²), when known. */
  sortBy: { price: number | null; weight: number | null };
  projections: { projection: Projection; label: string; href: string; status: string; statusLabel: string; finished: boolean }[];
}

/** A group of garments sharing a category, with its own anchor (the no-JS category filter). */
export interface CategoryGroupView {
  anchor: string;
  label: string;
  garments: GarmentCardView[];
  /** On the home page of a site too large to list every garment: the category's own pages, and how many garments they list. */
  more: { href: string; count: number } | null;
}

/** A link to a category, or to the search narrowed by a filter: its label, where it leads, and how many garments match. */
export interface FilterView {
  href: string;
  label: string;
  count: number;
}

/**
 * A list of garments grouped by category: the categories to go to, and links into the search (the
 * site's one filtering system) narrowed by projection or research status, counted over every garment
 * of the site or of the category, not only those the page shows.
 */
export interface GarmentListView {
  count: number;
  groups: CategoryGroupView[];
  filters: { categories: FilterView[]; projections: FilterView[]; statuses: FilterView[] };
}

/** The orders a category's garments can be listed in: a page of its own each, so sorting needs no script. */
export const LISTING_SORTS = ['name', 'price', 'weight'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];

/**
 * How much a listing page holds. The home page lists every garment up to `homeGarments`; past that,
 * it shows each category's first `categoryPreview`, and each category has pages of its own listing
 * `pageGarments` garments each, so no page grows with the site.
 */
export interface ListingLimits {
  homeGarments: number;
  categoryPreview: number;
  pageGarments: number;
}

export const LISTING_LIMITS: ListingLimits = { homeGarments: 200, categoryPreview: 12, pageGarments: 200 };

/** One page of a category's listing, on a site too large for the home page to list every garment. */
export interface CategoryPageView {
  path: string;
  label: string;
  /** Garments in the category, and the positions (from 1) of this page's first and last. */
  total: number;
  first: number;
  last: number;
  /** The category's name as the search's category filter spells it, for a search within it. */
  searchCategory: string;
  /** This page's garments, with the search's projection and status filters counted over the whole category. */
  list: GarmentListView;
  sort: ListingSort;
  /** The same listing in each order, the current one marked. */
  sorts: { sort: ListingSort; label: string; href: string; current: boolean }[];
  pagination: PaginationView;
}

/** Links between the pages of a listing: the pages near this one, the first and the last; null where pages are left out. */
export interface PaginationView {
  page: number;
  pages: number;
  previous: string | null;
  next: string | null;
  links: ({ page: number; href: string; current: boolean } | null)[];
}

const STATUSES = ['complete', 'complete_with_gaps', 'in_progress', 'identity_unresolved', 'incomplete'] as const;
/** Pages linked on each side of the current one. */
const PAGINATION_REACH = 2;

/** Whether a site of this many garments lists them on category pages, its home page showing each category's first few. */
export function listsByCategory(garments: number, limits: ListingLimits = LISTING_LIMITS): boolean {
  return garments > limits.homeGarments;
}

/** The home page's list: every garment by category, or on a large site each category's first few and a link to the rest. */
export function garmentListView(index: SiteIndex, limits: ListingLimits = LISTING_LIMITS): GarmentListView {
  const categories = categoriesOf(index);
  const count = index.garments.size;
  const whole = !listsByCategory(count, limits);
  const groups = categories.map(({ slug, anchor, label, garments }) => ({
    anchor,
    label,
    garments: whole ? garments : garments.slice(0, limits.categoryPreview),
    more: whole ? null : { href: categoryPath(slug), count: garments.length },
  }));
  return {
    count,
    groups,
    // A category's link shows its group here, or on a large site leads to its own pages.
    filters: {
      categories: groups.map((g) => ({ href: g.more?.href ?? `#${g.anchor}`, label: g.label, count: g.more?.count ?? g.garments.length })),
      ...searchFilters(
        categories.flatMap((category) => category.garments),
        null,
      ),
    },
  };
}

/** Whether a list shows any garment's picture: a page loads the script standing in for a picture that fails only then. */
export function listShowsImages(list: GarmentListView): boolean {
  return list.groups.some((group) => group.garments.some((garment) => garment.image !== null));
}

/** Every page of every category's listing, in each order; none when the home page lists every garment. */
export function categoryPages(index: SiteIndex, limits: ListingLimits = LISTING_LIMITS): CategoryPageView[] {
  if (!listsByCategory(index.garments.size, limits)) return [];
  return categoriesOf(index).flatMap(({ slug, anchor, label, garments }) => {
    const pages = Math.ceil(garments.length / limits.pageGarments);
    const searchCategory = searchValue(label);
    const filters = { categories: [], ...searchFilters(garments, searchCategory) };
    return LISTING_SORTS.flatMap((sort) => {
      const sorted = sortedGarments(garments, sort);
      return Array.from({ length: pages }, (_, i) => {
        const shown = sorted.slice(i * limits.pageGarments, (i + 1) * limits.pageGarments);
        return {
          path: categoryPath(slug, i + 1, sort),
          label,
          total: garments.length,
          first: i * limits.pageGarments + 1,
          last: i * limits.pageGarments + shown.length,
          searchCategory,
          list: { count: shown.length, groups: [{ anchor, label, garments: shown, more: null }], filters },
          sort,
          sorts: LISTING_SORTS.map((other) => ({
            sort: other,
            label: t(`category.sort.${other}`),
            href: categoryPath(slug, 1, other),
            current: other === sort,
          })),
          pagination: pagination(i + 1, pages, (page) => categoryPath(slug, page, sort)),
        };
      });
    });
  });
}

/** Garments in a listing's order: by title (as kept), or by lowest price or weight, those without one last, by title. */
function sortedGarments(garments: GarmentCardView[], sort: ListingSort): GarmentCardView[] {
  if (sort === 'name') return garments;
  const key = (card: GarmentCardView) => card.sortBy[sort] ?? Number.POSITIVE_INFINITY;
  // A stable sort keeps the title order among equals.
  return [...garments].sort((a, b) => key(a) - key(b) || 0);
}

/** A category with its slug (unique on the site), its anchor on the home page and its garments by title. */
interface Category {
  slug: string;
  anchor: string;
  label: string;
  garments: GarmentCardView[];
}

/** Titles and categories in English alphabetical order, letter case aside. */

/** Each site index's categories, made once: the home page, the category pages and the sitemap all ask. */
const categoriesByIndex = new WeakMap<SiteIndex, Category[]>();

/** The site's garments by category (A–Z, uncategorised last), each sorted by title. */
function categoriesOf(index: SiteIndex): Category[] {
  const known = categoriesByIndex.get(index);
  if (known) return known;
  const cards = [...index.garments.entries()].map(([slug, records]) => garmentCard(slug, records));
  cards.sort((a, b) => byName(a.title, b.title) || a.slug.localeCompare(b.slug));
  const uncategorised = t('index.uncategorised');
  const byCategory = Map.groupBy(cards, (card) => card.category);
  const labels = [...byCategory.keys()].sort((a, b) => Number(a === uncategorised) - Number(b === uncategorised) || byName(a, b));
  const slugs = new Set<string>();
  const categories = labels.map((label, i) => {
    const base = slugify(label);
    // Two labels can read alike once slugified ("T-shirts", "T shirts"): the later one is numbered.
    let slug = base;
    for (let n = 2; slugs.has(slug); n++) slug = `${base}-${n}`;
    slugs.add(slug);
    return { slug, anchor: `category-${i + 1}-${anchorToken(base)}`, label, garments: byCategory.get(label)! };
  });
  categoriesByIndex.set(index, categories);
  return categories;
}

/**
 * Links into the search narrowed by projection and by research status (within a category, when
 * given as the search spells it), each with how many of the garments it would find.
 */
function searchFilters(cards: GarmentCardView[], category: string | null): Pick<GarmentListView['filters'], 'projections' | 'statuses'> {
  const href = (filter: string, value: string) =>
    `${SEARCH_PAGE_PATH}?${new URLSearchParams([...(category === null ? [] : [['category', category]]), [filter, value]])}`;
  const withProjection = (p: Projection) => cards.filter((c) => c.projections.some((x) => x.projection === p)).length;
  const withStatus = (s: string) => cards.filter((c) => c.projections.some((x) => x.status === s)).length;
  return {
    projections: PROJECTIONS.map((p) => ({
      href: href('projection', projectionLabel(p)),
      label: projectionLabel(p),
      count: withProjection(p),
    })).filter((f) => f.count > 0),
    statuses: STATUSES.map((s) => ({
      href: href('status', researchStatusLabel(s)),
      label: researchStatusLabel(s),
      count: withStatus(s),
    })).filter((f) => f.count > 0),
  };
}

/**
 * Links from page `page` of `pages` to its neighbours, the first and the last page.
 * @example pagination(5, 9, href).links → pages 1, null, 3, 4, 5 (current), 6, 7, null, 9
 */
export function pagination(page: number, pages: number, href: (page: number) => string): PaginationView {
  const links: PaginationView['links'] = [];
  for (let n = 1; n <= pages; n++) {
    if (n === 1 || n === pages || Math.abs(n - page) <= PAGINATION_REACH) links.push({ page: n, href: href(n), current: n === page });
    else if (links.at(-1) !== null) links.push(null);
  }
  return { page, pages, previous: page > 1 ? href(page - 1) : null, next: page < pages ? href(page + 1) : null, links };
}

/** A garment's card: title, brand and category from its first record, the facts a search result shows, one line per projection. */
export function garmentCard(slug: string, records: GarmentEntries): GarmentCardView {
  const entries = PROJECTIONS.map((p) => records[p]).filter((e): e is SiteEntry => e !== undefined);
  const first = entries[0]!;
  const image = entries.find((entry) => entry.image)?.image;
  const brand = entries.map((e) => e.brand).find(Boolean);
  const commerce = records.svc?.card ?? {};
  const technical = records.tech?.card ?? {};
  const fact = (label: string, value: string | undefined) => (value ? [{ label, value: unitsWithTheirNumbers(displayText(value)) }] : []);
  return {
    slug,
    title: displayText(first.title),
    href: garmentPath(slug),
    brand: brand ? displayText(brand) : null,
    category: displayText(entries.map((e) => e.category?.trim()).find(Boolean) ?? t('index.uncategorised')),
    image: image ? { src: image.url, alt: displayText(image.alt) } : null,
    facts: [
      ...fact(t('index.fact.price'), commerce.price),
      ...fact(t('index.fact.sizes'), commerce.sizes ?? technical.sizes),
      ...fact(t('index.fact.fabric'), technical.fabric),
      ...fact(t('index.fact.weight'), technical.weight),
    ],
    sortBy: { price: commerce.priceValue ?? null, weight: technical.weightGsm ?? null },
    projections: entries.map((e) => ({
      projection: e.projection,
      label: projectionLabel(e.projection),
      href: pagePath(slug, e.projection),
      status: e.researchStatus,
      statusLabel: researchStatusLabel(e.researchStatus),
      finished: e.researchStatus === 'complete',
    })),
  };
}

/**
 * A card's value with a no-break space between each number and its unit, so a narrow card never puts a unit on the next line.
 * @example unitsWithTheirNumbers('7.75 oz/yd², 263 g/m²') → '7.75\u00a0oz/yd², 263\u00a0g/m²'
 */
export function unitsWithTheirNumbers(text: string): string {
  return text.replace(/(\d) (?=oz\/yd²|g\/m²)/g, '$1\u00a0');
}

/** A value as the search's filters spell it (whitespace collapsed, long values shortened). */
function searchValue(text: string): string {
  return distinctValues([text])[0] ?? text;
}

function slugify(text: string): string {
  // Cut to fit a file name, whatever the record's category: labels alike so far are numbered apart.
  const words = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, CATEGORY_SLUG_MAX);
  return words.replace(/^-|-$/g, '') || 'other';
}

/** The longest category slug (a folder name under /categories/). */
const CATEGORY_SLUG_MAX = 80;
