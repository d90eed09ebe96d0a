// The site's search, over every shard of its index: the one logic the browser's search box and
// the MCP tool `garments.search` run, so both find the same garments in the same order. It touches
// no page: the caller hands it the shard list and a way to load Pagefind and the word lists. In
// Node, Pagefind's own script fetches its files with the global `fetch`: give it one that reads the
// built site's files (tests/integration/search-index.test.ts and src/lib/bench/search-bench.ts do).
import type {
  FilterCounts,
  PagefindApi,
  PagefindInstance,
  PagefindResult,
  PagefindResultData,
  PagefindSearch,
  PagefindSearchOptions,
} from './pagefind-api.ts';
import { GARMENT_META, NO_NUMBER, titleSortKey, type SearchSort } from './search-keys.ts';
import type { ShardList } from './shard-list.ts';
import { nearestWords, relatedWords, wordKey, type WordList } from './search-words.ts';
import { sizeWord } from './size-labels.ts';

/** The hits of a search, in order, their data loaded as they are shown. */
export interface ShardHits {
  count: number;
  /** The data of the next `count` hits (fewer at the end); `onData` is given each in order as soon as it and those before it are loaded. */
  next: (count: number, onData?: (data: PagefindResultData) => void) => Promise<PagefindResultData[]>;
}

/** No hits: before any search, or when there is nothing to search for. */
export const NO_HITS: ShardHits = { count: 0, next: async () => [] };

/** A sort as the reader picked it: which key, and which way. */
export interface SortOrder {
  key: SearchSort;
  direction: 'asc' | 'desc';
}

/** The site's index, opened: every shard merged into one Pagefind search. */
export interface SearchIndex {
  list: ShardList;
  /** Null for a site without garments: every search finds nothing. */
  pagefind: PagefindInstance | null;
  /** The words of one first character (search-words.ts), loaded once. */
  words: (key: string) => Promise<WordList>;
}

/** How a search index is loaded: Pagefind's module from a bundle folder, and a JSON file of the site. */
export interface SearchLoader {
  pagefind: (bundle: string) => Promise<PagefindApi>;
  json: (path: string) => Promise<unknown>;
}

/** The synthetic filter naming each page's shard (its bundle's number), added in the browser (`mergeFilter`). */
export const SHARD_FILTER = 'shard';
/** A shard value no page carries: a search under it counts what matches without listing any hit. */
const NO_SHARD = 'none';
/** Related words offered for a word no garment says. */
const SUGGESTIONS = 3;
/** Words of an excerpt. */
const EXCERPT_WORDS = 24;
/** A name (brand, style code, alias) matched counts this much beside the title's 5 and the text's 1. */
const NAMES_WEIGHT = 3;

/**
 * Opens the index a shard list describes: the first shard's Pagefind with every other merged into
 * it (Pagefind's `mergeIndex`: one WebAssembly module, shards loading together), each tagged with
 * its shard (a synthetic filter) and fetching its entry file under its content tag, so an unchanged
 * shard comes from the cache on the next visit.
 */
export async function openSearchIndex(list: ShardList, load: SearchLoader): Promise<SearchIndex> {
  const lists = new Map<string, Promise<WordList>>();
  const words = (key: string) => {
    const file = list.words[key];
    if (!file) return Promise.resolve({});
    let loaded = lists.get(key);
    if (!loaded) lists.set(key, (loaded = load.json(file).then((json) => json as WordList)));
    return loaded;
  };
  const [first, ...others] = list.shards;
  if (!first) return { list, pagefind: null, words };
  const options = (at: number) => ({
    // Hits are paths on the site wherever the bundles come from (Node reads them from a loopback origin); the browser's default.
    baseUrl: '/',
    excerptLength: EXCERPT_WORDS,
    metaCacheTag: list.tags[at],
    mergeFilter: { [SHARD_FILTER]: shardName(list.shards[at]!) },
    ranking: { metaWeights: { [GARMENT_META.names]: NAMES_WEIGHT } },
  });
  const api = await load.pagefind(first);
  const pagefind = api.createInstance({ basePath: first, ...options(0) });
  await Promise.all(others.map((bundle, at) => pagefind.mergeIndex(bundle, options(at + 1))));
  return { list, pagefind, words };
}

/** A shard's name as its pages' synthetic filter gives it: its number (its folder is `<n>.<tag>`). */
function shardName(bundle: string): string {
  return bundle.split('/').filter(Boolean).at(-1)!.split('.')[0]!;
}

/** What is asked of the search. */
export interface GarmentQuery {
  /** The words as typed; '' for none. */
  words: string;
  /** Selected values per filter: values of one filter are alternatives, filters narrow one another. */
  filters: Record<string, string[]>;
  sort: SortOrder | null;
  /** Whether to count, per filter value, the hits it would leave (this loads every filter file). */
  counts: boolean;
}

/** What a search found. */
export interface GarmentSearch {
  hits: ShardHits;
  /** Per filter value, how many hits it would leave (under the other filters' selections); null when not asked. */
  filters: FilterCounts | null;
  /** The words searched for: those asked, a word no garment says replaced by the one a letter away that garments say. */
  searched: string;
  /** Whether `searched` replaced (or left out) a word asked for. */
  corrected: boolean;
  /** Words asked that no garment says nor is one edit from, left out of a search that had other words to search for. */
  dropped: string[];
  /** When every word asked is such a word: searches that would find garments, the words asked, each such word replaced by a near one. */
  suggestions: string[];
}

/**
 * The words of a query as Pagefind searches them: lower case, accents and punctuation dropped (a
 * hyphenated word is one word), currency signs dropped, a size as the index spells it (size-labels.ts).
 * @example queryWords('T-shirt  Café $12 XXL') → ['tshirt', 'cafe', '12', '2xl']
 */
export function queryWords(words: string): string[] {
  return words
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('en')
    .replace(/[\p{P}\p{Sc}]/gu, '')
    .split(/\s+/)
    .filter(Boolean)
    .map(sizeWord);
}

/**
 * Searches every garment: one result each, best match first or in the order of a sort.
 *
 * A word finds only garments that say it (or a word of the same stem, or, for a word being typed,
 * a word it begins): Pagefind alone, in a shard holding no such word, falls back to the nearest
 * word it holds, and those hits would fill the list. So each word is first searched exactly, and
 * counted per shard; a word no shard holds is looked up in the site's words, as the start of a word
 * (typing), then as a misspelling one edit from a word (replaced by the word most garments say:
 * one of its own first character first, then any, for a mistyped first letter); otherwise it is
 * left out when other words are left to search for (`dropped`), and a search of such words alone
 * finds nothing, with related words offered instead (relatedWords). Only shards holding every word are searched.
 *
 * Relevance over shards is Pagefind's own merge; a sort is not (Pagefind's sorted scores are ranks
 * within one shard), so a sorted search reads each shard's sorted list and merges them by the key.
 * A value's count is the hits carrying it under the other filters' selections.
 */
export async function searchGarments(index: SearchIndex, query: GarmentQuery): Promise<GarmentSearch> {
  const { pagefind } = index;
  const asked = queryWords(query.words);
  const none: GarmentSearch = {
    hits: NO_HITS,
    filters: query.counts ? {} : null,
    searched: asked.join(' '),
    corrected: false,
    dropped: [],
    suggestions: [],
  };
  if (!pagefind) return none;
  const allShards = index.list.shards.map(shardName);
  let shards = new Set(allShards);
  const searched: string[] = [];
  const unknown: { at: number; word: string }[] = [];
  for (const [at, word] of asked.entries()) {
    const found = await wordShards(index, pagefind, word);
    if (found === null) {
      unknown.push({ at, word });
      continue;
    }
    searched.push(found.word);
    shards = new Set([...shards].filter((shard) => found.shards.has(shard)));
  }
  // A word no garment says is left out when other words are left to search for; alone, it finds nothing, and near words are offered.
  const dropped = searched.length > 0 ? unknown.map(({ word }) => word) : [];
  const suggestions: string[] = [];
  if (searched.length === 0 && unknown.length > 0) {
    const every = await everyWord(index);
    for (const { at, word } of unknown) {
      const near = relatedWords(word, every, SUGGESTIONS);
      suggestions.push(...near.map((other) => asked.map((typed, position) => (position === at ? other : typed)).join(' ')));
    }
    searched.push(...asked);
    shards = new Set();
  }
  const term = searched.length > 0 ? searched.join(' ') : null;
  const result = { searched: searched.join(' '), corrected: searched.join(' ') !== asked.join(' '), dropped, suggestions };
  if (term !== null && shards.size === 0) return { ...none, ...result };
  const within = (filters: Record<string, string[]>): PagefindSearchOptions['filters'] => {
    const options = Object.fromEntries(Object.entries(filters).map(([filter, values]) => [filter, { any: values }]));
    // Every shard allowed (a word they all hold) needs no filter, and Pagefind is quicker without one.
    return term === null || shards.size === allShards.length ? options : { ...options, [SHARD_FILTER]: { any: [...shards] } };
  };
  const selected = Object.fromEntries(Object.entries(query.filters).filter(([, values]) => values.length > 0));
  const counting = query.counts
    ? Promise.all(Object.keys(selected).map((filter) => pagefind.search(term, { filters: within(withoutFilter(selected, filter)) })))
    : Promise.resolve([]);
  let hits: ShardHits;
  let found: PagefindSearch;
  if (query.sort) {
    // One search per shard, each in the shard's own order.
    const sort = { [query.sort.key]: query.sort.direction };
    const lists = await Promise.all(
      (term === null ? allShards : [...shards]).map((shard) =>
        pagefind.search(term, { filters: { ...within(selected), [SHARD_FILTER]: { any: [shard] } }, sort }),
      ),
    );
    found = { results: [], unfilteredResultCount: 0, filters: mergeFilterCounts(lists.map((list) => list.filters)) };
    hits = sortedHits(
      lists.map((list) => list.results),
      query.sort,
    );
  } else {
    found = await pagefind.search(term, { filters: within(selected) });
    hits = bestFirstHits(found.results);
  }
  const filters = query.counts ? { ...found.filters } : null;
  if (filters) {
    delete filters[SHARD_FILTER];
    (await counting).forEach((alternative, at) => {
      const filter = Object.keys(selected)[at]!;
      filters[filter] = alternative.filters?.[filter] ?? {};
    });
  }
  return { hits, filters, ...result };
}

/** Where a word is found: the shards holding it, and, for a misspelling, the word it was taken for. */
interface WordShards {
  word: string;
  shards: Set<string>;
}

/** Where a word is found, or null when no garment says it nor a word one edit from it. */
async function wordShards(index: SearchIndex, pagefind: PagefindInstance, word: string): Promise<WordShards | null> {
  // Searched exactly (quoted: the word or its stem, no fallback) under a shard no page is in: the counts alone say which shards hold it.
  const exact = await pagefind.search(`"${word}"`, { filters: { [SHARD_FILTER]: { any: [NO_SHARD] } } });
  const holding = Object.entries(exact.totalFilters?.[SHARD_FILTER] ?? {})
    .filter(([, count]) => count > 0)
    .map(([shard]) => shard);
  if (holding.length > 0) return { word, shards: new Set(holding) };
  const list = await index.words(wordKey(word));
  const begun = Object.entries(list).filter(([known]) => known.startsWith(word));
  if (begun.length > 0) return { word, shards: new Set(begun.flatMap(([, [, shards]]) => shards.map(String))) };
  const [taken] = nearestWords(word, list, 1, 1);
  if (taken !== undefined) return { word: taken, shards: new Set(list[taken]![1].map(String)) };
  // A first letter mistyped (or dropped, or added): the word it was taken for starts with any letter.
  const every = await everyWord(index);
  const [elsewhere] = nearestWords(word, every, 1, 1);
  return elsewhere === undefined ? null : { word: elsewhere, shards: new Set(every[elsewhere]![1].map(String)) };
}

/** Every word of the site, every first character's list loaded. */
async function everyWord(index: SearchIndex): Promise<WordList> {
  const lists = await Promise.all(Object.keys(index.list.words).map((key) => index.words(key)));
  return Object.assign(Object.create(null) as WordList, ...lists);
}

function withoutFilter(selected: Record<string, string[]>, filter: string): Record<string, string[]> {
  return Object.fromEntries(Object.entries(selected).filter(([key]) => key !== filter));
}

/** Counts per filter value over several searches, summed. */
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

/** The key a hit is sorted by, as the index made it (search-fields.ts): its title's sort key, its latest publication, its price or weight. */
function sortKey(data: PagefindResultData, key: SearchSort): string {
  if (key === 'title') return titleSortKey(data.meta.title ?? '');
  return data.meta[GARMENT_META[key]] ?? (key === 'published' ? '' : NO_NUMBER);
}

/**
 * A `next` whose calls run one after another: calls made together (a second "Show more" while the
 * first loads) get consecutive batches, each in order, not the same hits twice.
 */
function inTurn(next: ShardHits['next']): ShardHits['next'] {
  let previous: Promise<unknown> = Promise.resolve();
  return (count, onData) => {
    const batch = previous.then(() => next(count, onData));
    previous = batch.catch(() => {});
    return batch;
  };
}

function bestFirstHits(results: PagefindResult[]): ShardHits {
  let shown = 0;
  return {
    count: results.length,
    next: inTurn(async (count, onData) => {
      const batch = results.slice(shown, shown + count);
      shown += batch.length;
      const loading = batch.map((result) => result.data());
      if (onData) for (const data of loading) onData(await data);
      return Promise.all(loading);
    }),
  };
}

/** Merges lists each sorted by the key (in its shard) into one, loading each hit's data (for its key) only once the hits before it are merged. */
export function sortedHits(lists: PagefindResult[][], { key, direction }: SortOrder): ShardHits {
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
    next: inTurn(async (count, onData) => {
      const batch: PagefindResultData[] = [];
      while (batch.length < count) {
        const heads = await Promise.all(
          lists.map((list, shard) => (cursors[shard]! < list.length ? dataOf(list[cursors[shard]!]!) : null)),
        );
        let pick = -1;
        for (const [shard, head] of heads.entries()) {
          if (head && (pick === -1 || before(sortKey(head, key), sortKey(heads[pick]!, key)))) pick = shard;
        }
        if (pick === -1) break;
        batch.push(heads[pick]!);
        onData?.(heads[pick]!);
        cursors[pick]!++;
      }
      return batch;
    }),
  };
}
