// The names the index and the browser share. This module imports nothing, so the search script
// can use it without pulling the site's formatting and Markdown code into the browser.

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

/** The sort keys every record page carries: both are set on every page, so sorting never drops one. */
export const SEARCH_SORTS = ['title', 'published'] as const;

/** A sort key of the search index. */
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** The search page's path; the search box's form is sent there when the script cannot run. */
export const SEARCH_PAGE_PATH = '/search/';
