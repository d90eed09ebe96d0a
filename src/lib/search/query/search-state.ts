import { RENAMED_FILTERS, SEARCH_FILTERS, SEARCH_PAGE_PATH, type SearchFilter, type SearchSort } from './search-keys.ts';
import type { GarmentQuery } from './shard-search.ts';
import { sizeLabel } from './size-labels.ts';

/** What the reader asked for: kept in the page's query string so a search can be shared. */
export interface SearchState {
  /** The words typed, trimmed; '' when none. */
  query: string;
  /** Selected values per filter: a page must carry one of a filter's values, in every filter with any selected. */
  filters: Partial<Record<SearchFilter, string[]>>;
  /** Null: best match first. */
  sort: SearchSort | null;
}

/** The sort orders a reader can pick, and the direction each runs in. */
export const SORT_ORDERS: Record<SearchSort, 'asc' | 'desc'> = { title: 'asc', published: 'desc', price: 'asc', weight: 'asc' };

const FILTER_KEYS = new Set<string>(SEARCH_FILTERS);

/**
 * The search a query string asks for; unknown parameters and sorts are ignored, a size is spelled as the size filter spells it (`size=xxl` is 2XL).
 * @example parseSearchState(new URLSearchParams('q=fleece&projection=Technical&sort=title'))
 *   → { query: 'fleece', filters: { projection: ['Technical'] }, sort: 'title' }
 */
export function parseSearchState(params: URLSearchParams): SearchState {
  const filters: SearchState['filters'] = {};
  for (const [name, raw] of params) {
    const key = RENAMED_FILTERS.get(name) ?? name;
    const value = key === 'size' ? sizeLabel(raw) : raw.trim();
    if (!FILTER_KEYS.has(key) || value === '') continue;
    const values = (filters[key as SearchFilter] ??= []);
    if (!values.includes(value)) values.push(value);
  }
  const sort = params.get('sort');
  return {
    query: (params.get('q') ?? '').trim(),
    filters,
    sort: sort !== null && Object.hasOwn(SORT_ORDERS, sort) ? (sort as SearchSort) : null,
  };
}

/**
 * The query string of a search: `q` first, then filters in the order the UI shows them, then `sort`.
 * @example searchQueryString({ query: 'fleece', filters: { projection: ['Technical'] }, sort: null }) → 'q=fleece&projection=Technical'
 */
export function searchQueryString(state: SearchState): string {
  const params = new URLSearchParams();
  if (state.query !== '') params.set('q', state.query);
  for (const key of SEARCH_FILTERS) for (const value of state.filters[key] ?? []) params.append(key, value);
  if (state.sort) params.set('sort', state.sort);
  return params.toString();
}

/** Whether there is anything to search for: words, or at least one filter. */
export function isSearchable(state: SearchState): boolean {
  return searchTerm(state.query) !== null || Object.values(state.filters).some((values) => values.length > 0);
}

/**
 * The filters a state selects values of, and those values.
 * @example selectedFilters({ query: '', filters: { color: ['Navy'], size: [] }, sort: null }) → { color: ['Navy'] }
 */
export function selectedFilters(state: SearchState): Record<string, string[]> {
  return Object.fromEntries(Object.entries(state.filters).filter(([, values]) => values.length > 0));
}

/**
 * The words Pagefind searches for, or null for none: currency signs are left out, as Pagefind
 * indexes "$12.95" as 12.95 and would find nothing for the sign.
 * @example searchTerm('$12.95 tee') → '12.95 tee'; searchTerm('') → null
 */
export function searchTerm(query: string): string | null {
  const words = query
    .replace(/\p{Sc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return words === '' ? null : words;
}

/**
 * What a search asks of the index for a state, the same from the search page and the MCP tool;
 * `counts` asks for counts per filter value too.
 * @example garmentQuery({ query: '$12 tee', filters: {}, sort: 'title' }, false) → { words: '12 tee', filters: {}, sort: { key: 'title', direction: 'asc' }, counts: false }
 */
export function garmentQuery(state: SearchState, counts: boolean): GarmentQuery {
  const sort = state.sort ? { key: state.sort, direction: SORT_ORDERS[state.sort] } : null;
  return { words: searchTerm(state.query) ?? '', filters: selectedFilters(state), sort, counts };
}

/**
 * Where a search in a listing page's address (a shared `/?q=fleece`) is run: the search page, with
 * the listing's category when it has one; null when the address asks for no search.
 * @example searchPageAddress('?q=fleece&utm_source=x') → '/search/?q=fleece'; searchPageAddress('') → null
 */
export function searchPageAddress(query: string, category?: string): string | null {
  const state = parseSearchState(new URLSearchParams(query));
  if (!isSearchable(state)) return null;
  if (category !== undefined && !(state.filters.category ?? []).includes(category)) {
    state.filters.category = [...(state.filters.category ?? []), category];
  }
  return `${SEARCH_PAGE_PATH}?${searchQueryString(state)}`;
}
