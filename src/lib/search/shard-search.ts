import type { FilterCounts, PagefindApi, PagefindInstance, PagefindResult, PagefindResultData, PagefindSearch, PagefindSearchOptions } from './pagefind-api.ts';
import { titleSortKey, type SearchSort } from './search-keys.ts';

/** The hits of a search over every shard, in order, their data loaded as they are shown. */
export interface ShardHits {
  count: number;
  /** The data of the next `count` hits (fewer at the end). */
  next: (count: number) => Promise<PagefindResultData[]>;
}

/** No hits: before any search, or when there is nothing to search for. */
export const NO_HITS: ShardHits = { count: 0, next: async () => [] };

/** A search over every shard: the hits, and per filter value how many hits it would leave. */
export interface ShardSearch {
  hits: ShardHits;
  filters: FilterCounts;
}

/** A sort as the reader picked it: which key, and which way. */
export interface SortOrder {
  key: SearchSort;
  direction: 'asc' | 'desc';
}

/** Words of record text around a hit in its excerpt. */
const EXCERPT_WORDS = 24;

/**
 * Opens each shard's index (its bundle's address: `/pagefind/0/` in the browser, absolute in Node),
 * one at a time: Pagefind's instances fail (a WebAssembly trap) when they start together. Hit URLs
 * are site paths, as the site is served from the root of its host.
 */
export async function openShards(api: PagefindApi, basePaths: readonly string[]): Promise<ShardInstance[]> {
  const opened: ShardInstance[] = [];
  for (const basePath of basePaths) {
    const instance = api.createInstance({ basePath, baseUrl: '/' });
    await instance.options({ excerptLength: EXCERPT_WORDS });
    opened.push({ instance, totals: await instance.filters() });
  }
  return opened;
}

/** Counts per filter value over every shard, summed. */
export function mergeFilterCounts(counts: readonly (FilterCounts | undefined)[]): FilterCounts {
  const merged: FilterCounts = {};
  for (const shardCounts of counts) {
    for (const [filter, values] of Object.entries(shardCounts ?? {})) {
      const into = (merged[filter] ??= {});
      for (const [value, count] of Object.entries(values)) into[value] = (into[value] ?? 0) + count;
    }
  }
  return merged;
}

/**
 * Searches every shard and merges what they found: best match first across shards, or, with a
 * sort, the shards' sorted lists merged by the sort key. Pagefind scores a hit by relevance even
 * when it sorts, so sorted lists cannot be merged by score; their keys come from each hit's data
 * (its title, or its published date kept in its metadata), loaded only for the hits merged so far.
 *
 * A hit carries one of the selected values of each filter: values of one filter are alternatives,
 * filters narrow one another. So a value's count is the hits carrying it under the other filters'
 * selections, whether or not values of its own filter are selected.
 */
export async function searchShards(shards: readonly ShardInstance[], term: string | null, selected: Record<string, string[]>, sort: SortOrder | null): Promise<ShardSearch> {
  const [found, ...alternatives] = await Promise.all([
    searchEveryShard(shards, term, selected, sort),
    ...Object.keys(selected).map((filter) => searchEveryShard(shards, term, withoutFilter(selected, filter), null)),
  ]);
  const filters = mergeFilterCounts(found!.map((search) => search.filters));
  Object.keys(selected).forEach((filter, at) => {
    filters[filter] = mergeFilterCounts(alternatives[at]!.map((search) => search.filters))[filter] ?? {};
  });
  const lists = found!.map((search) => search.results);
  return { filters, hits: sort ? sortedHits(lists, sort) : bestFirstHits(lists) };
}

function searchEveryShard(shards: readonly ShardInstance[], term: string | null, selected: Record<string, string[]>, sort: SortOrder | null): Promise<PagefindSearch[]> {
  return Promise.all(
    shards.map((shard) => {
      const filters = shardFilters(shard.totals, selected);
      return filters ? shard.instance.search(term, sort ? { filters, sort: { [sort.key]: sort.direction } } : { filters }) : NO_RESULTS;
    }),
  );
}

function withoutFilter(selected: Record<string, string[]>, filter: string): Record<string, string[]> {
  return Object.fromEntries(Object.entries(selected).filter(([key]) => key !== filter));
}

/** A shard's index, and the counts of its filter values over all its pages. */
export interface ShardInstance {
  instance: PagefindInstance;
  totals: FilterCounts;
}

const NO_RESULTS: PagefindSearch = { results: [], unfilteredResultCount: 0, filters: {} };

/**
 * Pagefind's filters for a shard: in each selected filter, the selected values its pages carry;
 * null when a filter has none of them there, so the shard holds no hit.
 */
function shardFilters(totals: FilterCounts, selected: Record<string, string[]>): PagefindSearchOptions['filters'] | null {
  const filters: NonNullable<PagefindSearchOptions['filters']> = {};
  for (const [filter, values] of Object.entries(selected)) {
    const held = values.filter((value) => (totals[filter]?.[value] ?? 0) > 0);
    if (held.length === 0) return null;
    filters[filter] = { any: held };
  }
  return filters;
}

/** The key a hit is sorted by, as the index made it (search-fields.ts, searchSort). */
function sortKey(data: PagefindResultData, key: SearchSort): string {
  return key === 'title' ? titleSortKey(data.meta.title ?? '') : (data.meta.published ?? '');
}

function bestFirstHits(lists: PagefindResult[][]): ShardHits {
  const results = lists.flat().sort((a, b) => b.score - a.score);
  let shown = 0;
  return {
    count: results.length,
    next: async (count) => {
      const batch = results.slice(shown, shown + count);
      shown += batch.length;
      return Promise.all(batch.map((result) => result.data()));
    },
  };
}

function sortedHits(lists: PagefindResult[][], { key, direction }: SortOrder): ShardHits {
  const cursors = lists.map(() => 0);
  const loaded = new Map<PagefindResult, Promise<PagefindResultData>>();
  const dataOf = (result: PagefindResult) => {
    let data = loaded.get(result);
    if (!data) loaded.set(result, (data = result.data()));
    return data;
  };
  const before = (a: string, b: string) => (direction === 'asc' ? a < b : a > b);
  return {
    count: lists.reduce((sum, list) => sum + list.length, 0),
    next: async (count) => {
      const batch: PagefindResultData[] = [];
      while (batch.length < count) {
        const heads = await Promise.all(lists.map((list, shard) => (cursors[shard]! < list.length ? dataOf(list[cursors[shard]!]!) : null)));
        let pick = -1;
        for (const [shard, head] of heads.entries()) {
          if (head && (pick === -1 || before(sortKey(head, key), sortKey(heads[pick]!, key)))) pick = shard;
        }
        if (pick === -1) break;
        batch.push(heads[pick]!);
        cursors[pick]!++;
      }
      return batch;
    },
  };
}
