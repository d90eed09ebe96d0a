import { describe, expect, it } from 'vitest';
import {
  findKeptResult,
  KEPT_RESULTS_LIMIT,
  KEPT_RESULTS_SIZE,
  keepResult,
  keptResultKey,
  readKeptResults,
  type KeptResult,
} from '../../../../src/lib/search/browser/kept-results.ts';
import type { GarmentQuery } from '../../../../src/lib/search/query/shard-search.ts';

const LIST = '{"count":2,"shards":["/pagefind/0.en_a/","/pagefind/1.en_b/"]}';
const SCRIPT = 'https://example.test/_astro/SearchBox.abc123.js';

const query = (words: string, more: Partial<GarmentQuery> = {}): GarmentQuery => ({
  words,
  filters: {},
  sort: null,
  counts: false,
  ...more,
});

const result = (count: number, urls: string[] = ['/garments/a/']): KeptResult => ({
  search: { count, filters: null, searched: 'fleece', corrected: false, dropped: [], suggestions: [] },
  first: urls.map((url) => ({ url, excerpt: `a <mark>fleece</mark> at ${url}`, meta: { title: url } })),
});

/** Kept results after keeping each search in turn, read back as the next visit reads them. */
function keptAfter(searches: [GarmentQuery, KeptResult][], list = LIST, script = SCRIPT) {
  let stored: string | null = null;
  for (const [asked, shown] of searches) stored = keepResult(readKeptResults(stored, list, script), asked, shown);
  return stored;
}

describe('keptResultKey', () => {
  it('is the same whatever order the filters and their values were picked in', () => {
    const a = keptResultKey(query('fleece', { filters: { color: ['Navy', 'Black'], size: ['XL'] } }));
    const b = keptResultKey(query('fleece', { filters: { size: ['XL'], color: ['Black', 'Navy'], fit: [] } }));
    expect(a).toBe(b);
  });

  it('tells apart searches differing in words, a filter, the sort or whether counts are asked', () => {
    const keys = [
      query('fleece'),
      query('fleece hoodie'),
      query('fleece', { filters: { color: ['Navy'] } }),
      query('fleece', { sort: { key: 'title', direction: 'asc' } }),
      query('fleece', { sort: { key: 'published', direction: 'desc' } }),
      query('fleece', { counts: true }),
    ].map(keptResultKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('readKeptResults', () => {
  it('reads back a kept search for the same shard list and script', () => {
    const stored = keptAfter([[query('fleece'), result(3)]]);
    expect(findKeptResult(readKeptResults(stored, LIST, SCRIPT), query('fleece'))).toEqual(result(3));
  });

  it('finds nothing kept for another shard list: the site was rebuilt since', () => {
    const stored = keptAfter([[query('fleece'), result(3)]]);
    expect(readKeptResults(stored, LIST.replace('en_b', 'en_c'), SCRIPT).searches).toEqual([]);
  });

  it('finds nothing kept by another search script: results ranked by other code are not shown', () => {
    const stored = keptAfter([[query('fleece'), result(3)]]);
    expect(readKeptResults(stored, LIST, SCRIPT.replace('abc123', 'def456')).searches).toEqual([]);
  });

  it('finds nothing in text that is missing, not JSON, or not kept results, and skips entries of another shape', () => {
    for (const stored of [null, '', '{"list":', 'null', '[]', JSON.stringify({ list: LIST, script: SCRIPT, searches: 'x' })]) {
      expect(readKeptResults(stored, LIST, SCRIPT).searches).toEqual([]);
    }
    const odd = JSON.stringify({
      list: LIST,
      script: SCRIPT,
      searches: [
        ['a', null],
        [1, result(1)],
        ['b', { search: {}, first: [] }],
        // Kept before searches named the words they left out: the note would have nothing to read.
        ['d', { search: { ...result(1).search, dropped: undefined }, first: [] }],
        ['c', result(1)],
      ],
    });
    expect(readKeptResults(odd, LIST, SCRIPT).searches.map(([key]) => key)).toEqual(['c']);
  });
});

describe('findKeptResult', () => {
  it('finds nothing for a search not kept', () => {
    const kept = readKeptResults(keptAfter([[query('fleece'), result(3)]]), LIST, SCRIPT);
    expect(findKeptResult(kept, query('hoodie'))).toBeNull();
    expect(findKeptResult(kept, query('fleece', { counts: true }))).toBeNull();
  });
});

describe('keepResult', () => {
  it('keeps only what a result shows of each garment: its address, excerpt and metadata', () => {
    const shown = result(1);
    const loaded = { ...shown.first[0]!, content: 'the whole page text '.repeat(500), locations: [1, 2, 3] };
    const stored = keepResult(readKeptResults(null, LIST, SCRIPT), query('fleece'), { ...shown, first: [loaded] });
    expect(findKeptResult(readKeptResults(stored, LIST, SCRIPT), query('fleece'))!.first).toEqual(shown.first);
  });

  it('puts the latest search first and replaces an earlier result of the same search', () => {
    const stored = keptAfter([
      [query('fleece'), result(3)],
      [query('hoodie'), result(5)],
      [query('fleece'), result(4)],
    ]);
    const kept = readKeptResults(stored, LIST, SCRIPT);
    expect(kept.searches.map(([key]) => JSON.parse(key)[0])).toEqual(['fleece', 'hoodie']);
    expect(findKeptResult(kept, query('fleece'))!.search.count).toBe(4);
  });

  it(`keeps the ${KEPT_RESULTS_LIMIT} latest searches, dropping the oldest`, () => {
    const searches = Array.from({ length: KEPT_RESULTS_LIMIT + 3 }, (_, at): [GarmentQuery, KeptResult] => [
      query(`word${at}`),
      result(at),
    ]);
    const kept = readKeptResults(keptAfter(searches), LIST, SCRIPT);
    expect(kept.searches).toHaveLength(KEPT_RESULTS_LIMIT);
    expect(findKeptResult(kept, query('word2'))).toBeNull();
    expect(findKeptResult(kept, query('word3'))!.search.count).toBe(3);
    expect(findKeptResult(kept, query(`word${KEPT_RESULTS_LIMIT + 2}`))).not.toBeNull();
  });

  it('drops the oldest searches past the size limit, and keeps none when one search alone is larger', () => {
    const urls = Array.from({ length: 10 }, (_, at) => `/garments/${'long-name-'.repeat(300)}${at}/`);
    const searches = Array.from({ length: 8 }, (_, at): [GarmentQuery, KeptResult] => [query(`word${at}`), result(at, urls)]);
    const stored = keptAfter(searches)!;
    expect(stored.length).toBeLessThanOrEqual(KEPT_RESULTS_SIZE);
    const kept = readKeptResults(stored, LIST, SCRIPT);
    expect(kept.searches.length).toBeGreaterThan(0);
    expect(kept.searches.length).toBeLessThan(8);
    expect(kept.searches[0]![0]).toBe(keptResultKey(query('word7')));
    const huge = result(1, [`/garments/${'x'.repeat(KEPT_RESULTS_SIZE)}/`]);
    expect(readKeptResults(keepResult(kept, query('huge'), huge), LIST, SCRIPT).searches).toEqual([]);
  });
});
