// The names (and the title's sort key) the index and the browser share. This module imports
// nothing, so the search script can use it without pulling the site's formatting and Markdown
// code into the browser.

/** The filters every record page offers the search, in the order the search UI shows them. */
export const SEARCH_FILTERS = [
  'projection',
  'category',
  'brand',
  'manufacturer',
  'status',
  'decoration',
  'fabric',
  'construction',
  'fibre',
  'colour',
  'size',
] as const;

/** A filter of the search index. */
export type SearchFilter = (typeof SEARCH_FILTERS)[number];

/** A sort key every record page carries: a page without it would drop out of results sorted by it. */
export type SearchSort = 'title' | 'published';

/**
 * The title's sort key: the index sorts each shard by it, and the browser merges the shards by it.
 * Each run of digits is led by its length, so numbers sort by value in plain string order.
 * @example titleSortKey('Tee 10') → 'tee 00210', after titleSortKey('Tee 2') → 'tee 0012'
 */
export function titleSortKey(title: string): string {
  return title.toLocaleLowerCase('en').replace(/\d+/g, (digits) => {
    const value = digits.replace(/^0+(?=\d)/, '');
    return `${String(value.length).padStart(3, '0')}${value}`;
  });
}

/** Metadata keys of a garment's result besides its projections' own: which projections it has, its latest publication (its sort key), and the names searched but never shown. */
export const GARMENT_META = { projections: 'projections', names: 'names', published: 'published' } as const;

/** Where the build writes the index and Pagefind's scripts, on the site. */
export const SEARCH_BUNDLE_PATH = '/pagefind/';

/** The search page's path; the search box's form is sent there when the script cannot run. */
export const SEARCH_PAGE_PATH = '/search/';
