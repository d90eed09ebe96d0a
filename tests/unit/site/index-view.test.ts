import { describe, expect, it } from 'vitest';
import {
  categoryPages,
  garmentListView,
  listShowsImages,
  LISTING_LIMITS,
  pagination,
  unitsWithTheirNumbers,
  type ListingLimits,
} from '../../../src/lib/site/index-view.ts';
import { indexEntries, siteEntryOf, type SiteEntry } from '../../../src/lib/site/site-index.ts';
import { sampleRecords } from '../../support/records.ts';

const samples = sampleRecords();
const base = siteEntryOf(samples.find((s) => s.record.projection === 'svc')!.record, 'base.json');

/** A site of `count` garments (a commerce record each), the n-th titled "Garment <n>" in the category `categoryOf(n)`. */
function site(count: number, categoryOf: (n: number) => string | null = (n) => (n % 3 === 0 ? 'outerwear' : 'tops')) {
  const entries: SiteEntry[] = Array.from({ length: count }, (_, i) => ({
    ...base,
    slug: `garment-${String(i).padStart(4, '0')}`,
    title: `Garment ${String(i).padStart(4, '0')}`,
    category: categoryOf(i),
    researchStatus: i % 2 === 0 ? 'complete' : 'in_progress',
  }));
  return indexEntries(entries);
}

const small: ListingLimits = { homeGarments: 6, categoryPreview: 2, pageGarments: 3 };

describe('garmentListView', () => {
  it('closes the bidirectional formatting a record leaves open in the title, brand or category of a card', () => {
    const [RLO, PDF] = ['\u202E', '\u202C'];
    const list = garmentListView(indexEntries([{ ...base, title: `Tee ${RLO}abc`, brand: `Acme${RLO}`, category: `tops${RLO}` }]));
    const card = list.groups[0]!.garments[0]!;
    expect([card.title, card.brand, card.category]).toEqual([`Tee ${RLO}abc${PDF}`, `Acme${RLO}${PDF}`, `tops${RLO}${PDF}`]);
    expect(list.groups[0]!.label).toBe(`tops${RLO}${PDF}`);
  });

  it('lists every garment of a site the home page can hold, with every filter', () => {
    const list = garmentListView(site(6), small);
    expect(list.count).toBe(6);
    expect(list.groups.map((g) => [g.label, g.garments.length, g.more])).toEqual([
      ['outerwear', 2, null],
      ['tops', 4, null],
    ]);
    expect(list.filters.categories.map((f) => f.href)).toEqual(list.groups.map((g) => `#${g.anchor}`));
    expect(list.filters.projections.map((f) => [f.label, f.count])).toEqual([['Commerce', 6]]);
    expect(list.filters.statuses.map((f) => [f.label, f.count])).toEqual([
      ['Complete', 3],
      ['In progress', 3],
    ]);
    expect(categoryPages(site(6), small)).toEqual([]);
  });

  it('on a larger site shows each category’s first garments and leads to its pages', () => {
    const list = garmentListView(site(7), small);
    expect(list.count).toBe(7);
    expect(list.groups.map((g) => [g.label, g.garments.map((c) => c.title), g.more])).toEqual([
      ['outerwear', ['Garment 0000', 'Garment 0003'], { href: '/categories/outerwear/', count: 3 }],
      ['tops', ['Garment 0001', 'Garment 0002'], { href: '/categories/tops/', count: 4 }],
    ]);
    // The category links lead to the category pages and count all their garments; the search links count every garment, not only the previews.
    expect(list.filters.categories).toEqual([
      { href: '/categories/outerwear/', label: 'outerwear', count: 3 },
      { href: '/categories/tops/', label: 'tops', count: 4 },
    ]);
    expect(list.filters.projections).toEqual([{ href: '/search/?projection=Commerce', label: 'Commerce', count: 7 }]);
    expect(list.filters.statuses).toEqual([
      { href: '/search/?status=Complete', label: 'Complete', count: 4 },
      { href: '/search/?status=In+progress', label: 'In progress', count: 3 },
    ]);
  });

  it('by default lists up to 200 garments on the home page', () => {
    expect(LISTING_LIMITS.homeGarments).toBe(200);
    expect(garmentListView(site(200)).groups.every((g) => g.more === null)).toBe(true);
    expect(garmentListView(site(201)).groups.every((g) => g.more !== null && g.garments.length === LISTING_LIMITS.categoryPreview)).toBe(
      true,
    );
  });
});

describe('unitsWithTheirNumbers', () => {
  it('keeps each weight’s number and unit together, a doubt’s too, and leaves other spaces alone', () => {
    expect(unitsWithTheirNumbers('9 oz/yd², 305 g/m² (sources disagree: 9 or 8.5 oz/yd²)')).toBe(
      '9\u00a0oz/yd², 305\u00a0g/m² (sources disagree: 9 or 8.5\u00a0oz/yd²)',
    );
    expect(unitsWithTheirNumbers('From $12.95')).toBe('From $12.95');
  });
});

describe('listShowsImages', () => {
  it('is true when a garment of the list has a picture, so only then is the pictures’ script loaded', () => {
    const picture = { url: 'https://img.example/tee.jpg', alt: 'Tee' };
    expect(listShowsImages(garmentListView(indexEntries([{ ...base, image: null }])))).toBe(false);
    expect(
      listShowsImages(
        garmentListView(
          indexEntries([
            { ...base, image: null },
            { ...base, slug: 'other', image: picture },
          ]),
        ),
      ),
    ).toBe(true);
  });
});

describe('indexEntries', () => {
  it('orders garments by title as a reader counts: "Tee 2" before "Tee 10"', () => {
    const titled = (title: string, slug: string): SiteEntry => ({ ...base, title, slug });
    const index = indexEntries([titled('Tee 10', 'a'), titled('tee 2', 'b'), titled('Tee 1', 'c'), titled('Hoodie', 'd')]);
    expect(index.entries.map((e) => e.title)).toEqual(['Hoodie', 'Tee 1', 'tee 2', 'Tee 10']);
    expect(garmentListView(index).groups.flatMap((group) => group.garments.map((card) => card.title))).toEqual([
      'Hoodie',
      'Tee 1',
      'tee 2',
      'Tee 10',
    ]);
  });
});

/** The pages of the categories' listings by name. */
const byName = (pages: ReturnType<typeof categoryPages>) => pages.filter((page) => page.sort === 'name');

describe('categoryPages', () => {
  it('lists every garment of each category once, in title order, a page at a time', () => {
    const pages = byName(categoryPages(site(10), small));
    expect(pages.map((p) => [p.path, p.first, p.last, p.total, p.list.groups[0]!.garments.map((c) => c.title.slice(-2))])).toEqual([
      ['/categories/outerwear/', 1, 3, 4, ['00', '03', '06']],
      ['/categories/outerwear/2/', 4, 4, 4, ['09']],
      ['/categories/tops/', 1, 3, 6, ['01', '02', '04']],
      ['/categories/tops/2/', 4, 6, 6, ['05', '07', '08']],
    ]);
  });

  it('counts the search’s projection and status filters over the whole category, and leads to the search within it', () => {
    const [first] = categoryPages(site(10), small);
    expect(first!.list.count).toBe(3);
    expect(first!.total).toBe(4);
    expect(first!.list.filters.categories).toEqual([]);
    expect(first!.list.filters.statuses).toEqual([
      { href: '/search/?category=outerwear&status=Complete', label: 'Complete', count: 2 },
      { href: '/search/?category=outerwear&status=In+progress', label: 'In progress', count: 2 },
    ]);
    expect(first!.searchCategory).toBe('outerwear');
  });

  it('lists each category by name, by lowest price and by weight, each order a page of its own, those without the value last', () => {
    const index = site(4, () => 'tops');
    const priced = [30, null, 10, 20];
    for (const [i, entry] of index.entries.entries())
      entry.card = priced[i] === null ? {} : { price: `$${priced[i]}.00`, priceValue: priced[i]! };
    const pages = categoryPages(index, { homeGarments: 2, categoryPreview: 1, pageGarments: 10 });
    expect(pages.map((p) => [p.path, p.sort, p.list.groups[0]!.garments.map((c) => c.title.slice(-1))])).toEqual([
      ['/categories/tops/', 'name', ['0', '1', '2', '3']],
      ['/categories/tops/by-price/', 'price', ['2', '3', '0', '1']],
      ['/categories/tops/by-weight/', 'weight', ['0', '1', '2', '3']],
    ]);
    expect(pages[1]!.sorts).toEqual([
      { sort: 'name', label: 'Name', href: '/categories/tops/', current: false },
      { sort: 'price', label: 'Price from', href: '/categories/tops/by-price/', current: true },
      { sort: 'weight', label: 'Weight', href: '/categories/tops/by-weight/', current: false },
    ]);
    expect(pages[1]!.list.groups[0]!.garments[0]!.facts).toEqual([{ label: 'From', value: '$10.00' }]);
  });

  it('links each page to its neighbours', () => {
    const tops = byName(categoryPages(site(10), small)).filter((p) => p.label === 'tops');
    expect(tops.map((p) => [p.pagination.previous, p.pagination.next])).toEqual([
      [null, '/categories/tops/2/'],
      ['/categories/tops/', null],
    ]);
  });

  it('gives categories that read alike distinct addresses, and record text no way out of /categories/', () => {
    const labels = ['T-shirts', 't shirts', '../../etc', '<script>', '丁寧'];
    const paths = byName(
      categoryPages(
        site(10, (n) => labels[n % labels.length]!),
        small,
      ),
    )
      .filter((p) => p.first === 1)
      .map((p) => p.path);
    expect(paths).toEqual([
      '/categories/etc/',
      '/categories/script/',
      '/categories/t-shirts/',
      '/categories/t-shirts-2/',
      '/categories/other/',
    ]);
  });

  it('keeps a category’s address short enough for a file name, however long the category', () => {
    const long = 'a'.repeat(300);
    const paths = byName(
      categoryPages(
        site(10, (n) => (n % 2 ? long : `${long}b`)),
        small,
      ),
    )
      .filter((p) => p.first === 1)
      .map((p) => p.path);
    expect(paths).toEqual([`/categories/${'a'.repeat(80)}/`, `/categories/${'a'.repeat(80)}-2/`]);
  });

  it('puts garments without a category last, as uncategorised', () => {
    const pages = byName(
      categoryPages(
        site(10, (n) => (n < 8 ? 'tops' : null)),
        small,
      ),
    );
    expect(pages.at(-1)).toMatchObject({ path: '/categories/uncategorised/', label: 'Uncategorised', total: 2 });
  });
});

describe('pagination', () => {
  const href = (page: number) => `/p/${page}/`;
  const numbers = (page: number, pages: number) =>
    pagination(page, pages, href).links.map((link) => (link ? (link.current ? `[${link.page}]` : link.page) : '…'));

  it('links the first and last page and two on each side of the current one, marking gaps', () => {
    expect(numbers(5, 9)).toEqual([1, '…', 3, 4, '[5]', 6, 7, '…', 9]);
    expect(numbers(1, 9)).toEqual(['[1]', 2, 3, '…', 9]);
    expect(numbers(9, 9)).toEqual([1, '…', 7, 8, '[9]']);
    expect(numbers(4, 7)).toEqual([1, 2, 3, '[4]', 5, 6, 7]);
    expect(numbers(1, 1)).toEqual(['[1]']);
  });

  it('links the previous and next page where there is one', () => {
    expect(pagination(1, 3, href)).toMatchObject({ previous: null, next: '/p/2/' });
    expect(pagination(3, 3, href)).toMatchObject({ previous: '/p/2/', next: null });
  });
});
