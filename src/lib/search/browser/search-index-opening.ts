// Opening the site's search from the search page: the shard list (kept from the last visit, and as
// the site has it now), the index it names in a thread of its own, and what recent searches showed.
import { findKeptResult, keepResult, readKeptResults, type KeptResult } from './kept-results.ts';
import type { FilterCounts, PagefindResultData } from '../query/pagefind-api.ts';
import { SHARD_LIST_PATH, type ShardList } from '../query/shard-list.ts';
import type { GarmentQuery, GarmentSearch } from '../query/shard-search.ts';
import { openInThread, type ThreadIndex } from './search-thread.ts';

/** Where the page keeps the shard list it last read (localStorage). */
const KEPT_SHARD_LIST = 'garment-press:search-shards';
/** Where the page keeps what it showed for recent searches (kept-results.ts). */
const KEPT_RESULTS = 'garment-press:search-results';
/** The search script's own address: content-hashed by the build, so results ranked by other code are never shown. */
const SEARCH_SCRIPT = import.meta.url;

/** The site's search as the page opened it. */
export interface SearchOpening {
  /** The filter values of the shard list kept from the last visit, known at once; null without one. */
  keptFilters: FilterCounts | null;
  /** Once the shard list has come: its filter values, when it differs from the kept one (null when it is the same). */
  current: Promise<FilterCounts | null>;
  /** Searches the index of the shard list as it is now: run on the kept list's index while the list is asked for again, and kept only if the list comes back the same. */
  search: (query: GarmentQuery) => Promise<GarmentSearch>;
  /** Loads every filter file once, so searches can count per value. */
  loadFilters: () => Promise<void>;
  /** What a search showed on a recent visit to the index the shard list names now, or null; known once the list has come. */
  keptResult: (query: GarmentQuery) => Promise<KeptResult | null>;
  /** Keeps what a search showed, for a repeat visit. */
  keep: (query: GarmentQuery, found: GarmentSearch, first: PagefindResultData[]) => void;
}

/**
 * Opens the site's search. The shard list names every shard and carries the filter values, so the
 * filters show before Pagefind loads. Asking for it is a round trip on every visit (a rebuild
 * changes it under the same name), so the index the list kept from the last visit names is opened meanwhile.
 */
export function openSearch(): SearchOpening {
  // Asked for first: the kept index's files are read from the cache after it, not before.
  const asking = fetch(SHARD_LIST_PATH);
  const kept = keptShardList();
  // Not warmed up: what the kept list names came on the last visit and waits in the cache.
  const early = kept ? openInThread(kept.list) : null;
  const listText = (async () => {
    const response = await asking;
    if (!response.ok) throw new Error(`${SHARD_LIST_PATH}: HTTP ${response.status}`);
    return response.text();
  })();
  // The index of the list as the site has it now, when that differs from the kept one.
  let replaced: ThreadIndex | null = null;
  const current = (async () => {
    const text = await listText;
    if (early && kept?.text === text) return null;
    early?.close();
    const list = JSON.parse(text) as ShardList;
    keepShardList(text);
    replaced = openIndex(list);
    return list.filters;
  })();
  const index = async () => {
    await current;
    return (replaced ?? early)!;
  };
  async function search(query: GarmentQuery): Promise<GarmentSearch> {
    if (early) {
      const found = early.search(query);
      found.catch(() => {});
      if ((await current) === null) return found;
    }
    return (await index()).search(query);
  }
  let filters: Promise<void> | null = null;
  return {
    keptFilters: kept?.list.filters ?? null,
    current,
    search,
    loadFilters: () => (filters ??= index().then((opened) => opened.filters())),
    keptResult: async (query) => {
      try {
        return findKeptResult(readKeptResults(localStorage.getItem(KEPT_RESULTS), await listText, SEARCH_SCRIPT), query);
      } catch {
        // Storage refused, or no list: the search shows when it has run, as without kept results.
        return null;
      }
    },
    keep: (query, found, first) =>
      void listText.then(
        (text) => keepShown(text, query, found, first),
        () => {},
      ),
  };
}

function openIndex(list: ShardList): ThreadIndex {
  const opened = openInThread(list);
  warmUp(list);
  return opened;
}

/**
 * Asks at once for what the search thread would fetch one step after another (Pagefind's script,
 * its WebAssembly, each shard's metadata; the entry files are in the list): named by content, they
 * wait in the cache for Pagefind to ask. Errors are Pagefind's to report.
 */
function warmUp(list: ShardList): void {
  // Pagefind's script first: the thread asks for it as soon as its own script has come.
  const files = list.shards.length > 0 ? [`${list.shards[0]}pagefind.js`, `${list.shards[0]}wasm.en.pagefind`] : [];
  for (const [at, bundle] of list.shards.entries()) files.push(`${bundle}pagefind.${list.tags[at]}.pf_meta`);
  for (const file of files)
    void fetch(file)
      .then((answer) => answer.arrayBuffer())
      .catch(() => {});
}

/** The shard list kept from the last visit, as its text (to compare) and read; null when none is kept or storage is refused. */
function keptShardList(): { text: string; list: ShardList } | null {
  try {
    const text = localStorage.getItem(KEPT_SHARD_LIST);
    return text === null ? null : { text, list: JSON.parse(text) as ShardList };
  } catch {
    return null;
  }
}

function keepShardList(text: string): void {
  try {
    // Results kept for the list replaced were found in an index the site no longer has.
    localStorage.removeItem(KEPT_RESULTS);
    localStorage.setItem(KEPT_SHARD_LIST, text);
  } catch {
    // Storage refused or full: the next visit waits for the list, as this one did.
  }
}

function keepShown(listText: string, query: GarmentQuery, { hits: { count }, ...found }: GarmentSearch, first: PagefindResultData[]): void {
  try {
    // Read again: another tab may have kept searches since.
    const kept = readKeptResults(localStorage.getItem(KEPT_RESULTS), listText, SEARCH_SCRIPT);
    localStorage.setItem(KEPT_RESULTS, keepResult(kept, query, { search: { ...found, count }, first }));
  } catch {
    // Storage refused or full: the next visit waits for the search, as this one did.
  }
}
