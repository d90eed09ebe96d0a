// What the search page showed for recent searches, kept in the browser (localStorage) to show again
// at once on a repeat visit, while the search runs again behind it. A kept result is only good for
// the index it was found in and the code that found and ranked it: kept results name the shard list's
// text and the search script's address (content-hashed by the build), and any other list or script
// reads as nothing kept.
import type { PagefindResultData } from '../query/pagefind-api.ts';
import type { ThreadSearch } from './search-thread.ts';
import type { GarmentQuery } from '../query/shard-search.ts';

/** Searches kept, the most recent first; older ones are dropped. */
export const KEPT_RESULTS_LIMIT = 16;
/** The most characters the kept results take in storage (localStorage holds about 5 million an origin, shared with the rest of the site). */
export const KEPT_RESULTS_SIZE = 256 * 1024;

/** What a search showed: what it found but its hits (their count in their place), and its first batch of garments. */
export interface KeptResult {
  search: ThreadSearch;
  first: PagefindResultData[];
}

/** The kept results of one shard list and one search script: each search's key with what it showed, the most recent first. */
export interface KeptResults {
  list: string;
  script: string;
  searches: [key: string, result: KeptResult][];
}

/**
 * The key of a search: what it asks of the index, in one order whatever order the reader picked the filters in.
 * @example keptResultKey({ words: 'fleece', filters: { color: ['Navy'] }, sort: null, counts: false }) → '["fleece",[["color",["Navy"]]],null,false]'
 */
export function keptResultKey(query: GarmentQuery): string {
  const filters = Object.entries(query.filters)
    .filter(([, values]) => values.length > 0)
    .map(([filter, values]): [string, string[]] => [filter, [...values].sort()])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([query.words, filters, query.sort && [query.sort.key, query.sort.direction], query.counts]);
}

/** The kept results in a stored text for a shard list's text and a script: none when the text is missing, unreadable, or kept for another list or script. */
export function readKeptResults(stored: string | null, list: string, script: string): KeptResults {
  const none: KeptResults = { list, script, searches: [] };
  if (stored === null) return none;
  try {
    const kept = JSON.parse(stored) as Partial<KeptResults> | null;
    if (kept?.list !== list || kept.script !== script || !Array.isArray(kept.searches)) return none;
    return { list, script, searches: kept.searches.filter(isKeptSearch) };
  } catch {
    return none;
  }
}

/** What a search showed when it was kept, or null. */
export function findKeptResult(kept: KeptResults, query: GarmentQuery): KeptResult | null {
  const key = keptResultKey(query);
  return kept.searches.find(([searched]) => searched === key)?.[1] ?? null;
}

/**
 * The kept results with a search's put first (replacing an older one of the same search), the
 * oldest dropped past KEPT_RESULTS_LIMIT searches or KEPT_RESULTS_SIZE characters, as the text to store;
 * only what a result shows of each garment is kept (its address, excerpt and metadata).
 */
export function keepResult(kept: KeptResults, query: GarmentQuery, result: KeptResult): string {
  const key = keptResultKey(query);
  const shown: KeptResult = { search: result.search, first: result.first.map(({ url, excerpt, meta }) => ({ url, excerpt, meta })) };
  const searches = [[key, shown] as [string, KeptResult], ...kept.searches.filter(([searched]) => searched !== key)].slice(
    0,
    KEPT_RESULTS_LIMIT,
  );
  const text = (count: number) =>
    JSON.stringify({ list: kept.list, script: kept.script, searches: searches.slice(0, count) } satisfies KeptResults);
  let count = searches.length;
  while (count > 0 && text(count).length > KEPT_RESULTS_SIZE) count--;
  return text(count);
}

function isKeptSearch(entry: unknown): entry is [string, KeptResult] {
  if (!Array.isArray(entry) || typeof entry[0] !== 'string') return false;
  const result = entry[1] as Partial<KeptResult> | null;
  return typeof result?.search?.count === 'number' && Array.isArray(result.search.dropped) && Array.isArray(result.first);
}
