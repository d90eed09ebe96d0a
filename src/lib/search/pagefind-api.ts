// The part of Pagefind's browser API (`/pagefind/<shard>/pagefind.js`) the search UI uses.
// Pagefind ships no types for it; these follow https://pagefind.app/docs/api/.

/** Counts per value, per filter: `{ projection: { Commerce: 3 } }`. */
export type FilterCounts = Record<string, Record<string, number>>;

/** One hit's data, loaded on demand. `meta` is raw text; `excerpt` is the indexed text with `<` and `>` encoded (not `&`) and `<mark>` added. */
export interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
}

/** One hit before its data is loaded: `score` is its relevance, whatever order a sort gives. */
export interface PagefindResult {
  id: string;
  score: number;
  data: () => Promise<PagefindResultData>;
}

/** What a search returns; `filters` holds the count each value would leave if it were selected too. */
export interface PagefindSearch {
  results: PagefindResult[];
  unfilteredResultCount: number;
  filters?: FilterCounts;
}

/** Options of a search: per filter, values of which a hit must carry one; and a sort replacing relevance. */
export interface PagefindSearchOptions {
  filters?: Record<string, { any: string[] }>;
  sort?: Record<string, 'asc' | 'desc'>;
}

/** One index (here, one shard of the site's index), searched on its own. */
export interface PagefindInstance {
  options: (options: { excerptLength?: number }) => Promise<void>;
  filters: () => Promise<FilterCounts>;
  search: (term: string | null, options?: PagefindSearchOptions) => Promise<PagefindSearch>;
}

/** The module `/pagefind/<shard>/pagefind.js` exports (only what the search UI uses). */
export interface PagefindApi {
  createInstance: (options: { basePath: string; baseUrl?: string }) => PagefindInstance;
}
