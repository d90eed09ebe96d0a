// The part of Pagefind's browser API (`/pagefind/<shard>/pagefind.js`) the search uses.
// Pagefind ships no types for it; these follow https://pagefind.app/docs/api/ and Pagefind 1.6's own script.

/** Counts per value, per filter: `{ projection: { Commerce: 3 } }`. */
export type FilterCounts = Record<string, Record<string, number>>;

/** One hit's data, loaded on demand. `meta` is raw text; `excerpt` is the indexed text with `<` and `>` encoded (not `&`) and `<mark>` added. */
export interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: Record<string, string | undefined>;
}

/** One hit before its data is loaded: `score` is its relevance, or with a sort, its rank in its own index. */
export interface PagefindResult {
  id: string;
  score: number;
  data: () => Promise<PagefindResultData>;
}

/** What a search returns: `filters` counts the values over the hits, `totalFilters` over the hits before filtering. */
export interface PagefindSearch {
  results: PagefindResult[];
  unfilteredResultCount: number;
  filters?: FilterCounts;
  totalFilters?: FilterCounts;
}

/** Options of a search: per filter, values of which a hit must carry one; and a sort replacing relevance. */
export interface PagefindSearchOptions {
  filters?: Record<string, { any: string[] }>;
  sort?: Record<string, 'asc' | 'desc'>;
}

/** An index's entry file, `pagefind-entry.json`, as Pagefind writes it: its languages, each with its index's hash and pages. */
export interface PagefindEntry {
  version: string;
  languages: Record<string, { hash: string; wasm: string | null; page_count: number }>;
  include_characters?: string[];
}

/** Options of an index, given when it is created or merged. */
export interface PagefindIndexOptions {
  basePath?: string;
  /** What a hit's URL is relative to; by default the folder holding the bundles' folder. */
  baseUrl?: string;
  excerptLength?: number;
  /** Sent with the index's entry file (`pagefind-entry.json?ts=`): a fixed tag lets the browser cache it. */
  metaCacheTag?: string;
  /** A filter every page of this index carries, added in the browser: here, its shard. */
  mergeFilter?: Record<string, string>;
  ranking?: { metaWeights?: Record<string, number> };
}

/** A search over one index and those merged into it (Pagefind's `mergeIndex`), the WebAssembly loaded once. */
export interface PagefindInstance {
  mergeIndex: (basePath: string, options?: PagefindIndexOptions) => Promise<void>;
  /** Counts per value over every page; loads every filter file of every index. */
  filters: () => Promise<FilterCounts>;
  search: (term: string | null, options?: PagefindSearchOptions) => Promise<PagefindSearch>;
}

/** The module `/pagefind/<shard>/pagefind.js` exports (only what the search uses). */
export interface PagefindApi {
  createInstance: (options: PagefindIndexOptions) => PagefindInstance;
}
