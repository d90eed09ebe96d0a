import type { Projection } from '../record/types.ts';
import { anchorToken } from './anchors.ts';
import { researchStatusLabel } from './format.ts';
import type { GarmentEntries, SiteEntry, SiteIndex } from './site-index.ts';
import { projectionLabel, t } from './strings.ts';
import { garmentPath, pagePath } from './urls.ts';

/** One garment on the index: its records by projection, summarised. */
export interface GarmentCardView {
  slug: string;
  title: string;
  href: string;
  brand: string | null;
  category: string;
  /** Only http(s) images; none otherwise. */
  image: { src: string; alt: string } | null;
  projections: { projection: Projection; label: string; href: string; status: string; statusLabel: string; finished: boolean }[];
}

/** A group of garments sharing a category, with its own anchor (the no-JS category filter). */
export interface CategoryGroupView {
  anchor: string;
  label: string;
  garments: GarmentCardView[];
}

/** A filter link: its label, the anchor it targets, and how many garments match. */
export interface FilterView {
  href: string;
  label: string;
  count: number;
}

/** The home page: garments grouped by category (A–Z, uncategorised last) and the filters over them. */
export interface GarmentListView {
  count: number;
  groups: CategoryGroupView[];
  filters: { categories: FilterView[]; projections: (FilterView & { anchor: string })[]; statuses: (FilterView & { anchor: string })[] };
}

const PROJECTIONS: Projection[] = ['svc', 'tech'];
const STATUSES = ['complete', 'complete_with_gaps', 'in_progress', 'identity_unresolved', 'incomplete'] as const;

/** Builds the garment list of the home page from the site index. */
export function garmentListView(index: SiteIndex): GarmentListView {
  const cards: GarmentCardView[] = [...index.garments.entries()].map(([slug, records]) => garmentCard(slug, records));
  cards.sort((a, b) => a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }) || a.slug.localeCompare(b.slug));

  const uncategorised = t('index.uncategorised');
  const byCategory = new Map<string, GarmentCardView[]>();
  for (const card of cards) byCategory.set(card.category, [...(byCategory.get(card.category) ?? []), card]);
  const labels = [...byCategory.keys()].sort((a, b) =>
    Number(a === uncategorised) - Number(b === uncategorised) || a.localeCompare(b, 'en', { sensitivity: 'base' }));
  const groups = labels.map((label, i) => ({ anchor: `category-${i + 1}-${anchorToken(slugify(label))}`, label, garments: byCategory.get(label)! }));

  const withProjection = (p: Projection) => cards.filter((c) => c.projections.some((x) => x.projection === p)).length;
  const withStatus = (s: string) => cards.filter((c) => c.projections.some((x) => x.status === s)).length;
  return {
    count: cards.length,
    groups,
    filters: {
      categories: groups.map((g) => ({ href: `#${g.anchor}`, label: g.label, count: g.garments.length })),
      projections: PROJECTIONS.map((p) => ({ anchor: `only-${p}`, href: `#only-${p}`, label: projectionLabel(p), count: withProjection(p) }))
        .filter((f) => f.count > 0),
      statuses: STATUSES.map((s) => ({ anchor: `status-${s}`, href: `#status-${s}`, label: researchStatusLabel(s), count: withStatus(s) }))
        .filter((f) => f.count > 0),
    },
  };
}

/** A garment's card: title, brand and category from its first record, one line per projection. */
export function garmentCard(slug: string, records: GarmentEntries): GarmentCardView {
  const entries = PROJECTIONS.map((p) => records[p]).filter((e): e is SiteEntry => e !== undefined);
  const first = entries[0]!;
  const image = entries.find((entry) => entry.image)?.image;
  return {
    slug,
    title: first.title,
    href: garmentPath(slug),
    brand: entries.map((e) => e.brand).find(Boolean) ?? null,
    category: entries.map((e) => e.category?.trim()).find(Boolean) ?? t('index.uncategorised'),
    image: image ? { src: image.url, alt: image.alt } : null,
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

function slugify(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'other';
}
