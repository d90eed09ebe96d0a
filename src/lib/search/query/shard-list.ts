import type { PagefindEntry, FilterCounts } from './pagefind-api.ts';
import { SEARCH_BUNDLE_PATH } from './search-keys.ts';

/** The file listing the shards' bundles, which the search script reads first. */
export const SHARD_LIST_PATH = `${SEARCH_BUNDLE_PATH}shards.json`;

/**
 * What the shard list (`/pagefind/shards.json`) holds, the one file a search reads before any
 * other: how many shards the garments were spread over, the bundles of those that hold any, each
 * bundle's content tag (Pagefind fetches its entry file with it, so an unchanged bundle comes from
 * the cache) and entry file, garments per filter value over the site (the filter panel's values),
 * and the site's word lists by first character (search-words.ts).
 */
export interface ShardList {
  count: number;
  shards: string[];
  tags: string[];
  /** Each bundle's `pagefind-entry.json`: the browser's search answers Pagefind's request for it from here, a round trip a shard fewer (search-worker.ts). */
  entries: PagefindEntry[];
  filters: FilterCounts;
  words: Record<string, string>;
}

/**
 * Each shard's entry file as Pagefind asks for it (its `metaCacheTag` being the shard's tag), with
 * the text the shard list holds for it; a list kept by a visit to an older site may hold none.
 */
export function entryFiles(list: ShardList): Map<string, string> {
  const files = new Map<string, string>();
  list.shards.forEach((bundle, at) => {
    const entry = list.entries?.[at];
    if (entry) files.set(`${bundle}pagefind-entry.json?ts=${list.tags[at]}`, JSON.stringify(entry));
  });
  return files;
}
