import { describe, expect, it } from 'vitest';
import type { FilterCounts, PagefindInstance, PagefindResult, PagefindSearch } from '../../../src/lib/search/pagefind-api.ts';
import { mergeFilterCounts, searchShards, type ShardInstance } from '../../../src/lib/search/shard-search.ts';

/** A hit as Pagefind gives it: its relevance, and its data loaded on demand (counted). */
function hit(url: string, score: number, title: string, published: string, loads: string[]): PagefindResult {
  return { id: url, score, data: async () => (loads.push(url), { url, excerpt: '', meta: { title, published } }) };
}

/** A shard holding these hits, already in the order its own search returns them. */
function shard(results: PagefindResult[], totals: FilterCounts = {}): ShardInstance & { asked: number } {
  const search: PagefindSearch = { results, unfilteredResultCount: results.length, filters: { projection: { Commerce: results.length } } };
  const state = { asked: 0 };
  const instance: PagefindInstance = { options: async () => {}, filters: async () => totals, search: async () => (state.asked++, search) };
  return Object.assign(state, { instance, totals });
}

describe('mergeFilterCounts', () => {
  it('sums the counts of each filter value over the shards', () => {
    expect(mergeFilterCounts([{ colour: { Navy: 2, Black: 1 } }, undefined, { colour: { Navy: 3 }, size: { M: 1 } }])).toEqual({ colour: { Navy: 5, Black: 1 }, size: { M: 1 } });
  });
});

describe('searchShards', () => {
  const loads: string[] = [];
  const a = [hit('/a/', 0.9, 'Anorak', '2026-01-03', loads), hit('/c/', 0.2, 'Cap', '2026-01-01', loads)];
  const b = [hit('/b/', 0.5, 'Beanie', '2026-01-04', loads), hit('/d/', 0.7, 'Duffel', '2026-01-02', loads)];

  it('puts the best match first across shards when nothing is sorted, and sums the filter counts', async () => {
    const search = await searchShards([shard(a), shard(b)], 'x', {}, null);
    expect(search.hits.count).toBe(4);
    expect((await search.hits.next(3)).map((d) => d.url)).toEqual(['/a/', '/d/', '/b/']);
    expect((await search.hits.next(3)).map((d) => d.url)).toEqual(['/c/']);
    expect(search.filters).toEqual({ projection: { Commerce: 4 } });
  });

  it('merges sorted shards by the sort key, loading only the hits it needs', async () => {
    // Each shard returns its hits sorted; their scores say nothing of the order.
    const byTitle = await searchShards([shard([a[0]!, a[1]!]), shard([b[0]!, b[1]!])], null, {}, { key: 'title', direction: 'asc' });
    loads.length = 0;
    expect((await byTitle.hits.next(2)).map((d) => d.url)).toEqual(['/a/', '/b/']);
    // The two heads, then the next head of the shard taken from: Duffel is not loaded yet.
    expect(loads.sort()).toEqual(['/a/', '/b/', '/c/']);
    expect((await byTitle.hits.next(5)).map((d) => d.url)).toEqual(['/c/', '/d/']);

    const newest = await searchShards([shard([a[0]!, a[1]!]), shard([b[0]!, b[1]!])], null, {}, { key: 'published', direction: 'desc' });
    expect((await newest.hits.next(4)).map((d) => d.url)).toEqual(['/b/', '/a/', '/d/', '/c/']);
  });

  it('does not ask a shard that lacks every selected value of a filter, and asks the others for the values they hold', async () => {
    const holds = shard(a, { colour: { Navy: 2 } });
    const lacks = shard(b, { colour: { Black: 2 } });
    const asked: unknown[] = [];
    const search = holds.instance.search;
    holds.instance.search = (term, options) => (asked.push(options), search(term, options));
    const found = await searchShards([holds, lacks], null, { colour: ['Navy', 'Red'] }, { key: 'title', direction: 'asc' });
    // The hits, and the colours' counts under the other filters' selection (none).
    expect([holds.asked, lacks.asked]).toEqual([2, 1]);
    expect(asked).toEqual([{ filters: { colour: { any: ['Navy'] } }, sort: { title: 'asc' } }, { filters: {} }]);
    expect(found.hits.count).toBe(2);
  });
});

describe('searchShards with filters', () => {
  /** A shard of pages with these filter values, searched as Pagefind does: a page carries one selected value of each filter. */
  function catalogue(pages: Record<string, string>[]): ShardInstance {
    const counts = (of: Record<string, string>[]) => {
      const counted: FilterCounts = {};
      for (const page of pages) for (const [filter, value] of Object.entries(page)) (counted[filter] ??= {})[value] ??= 0;
      for (const page of of) for (const [filter, value] of Object.entries(page)) counted[filter]![value]!++;
      return counted;
    };
    const instance: PagefindInstance = {
      options: async () => {},
      filters: async () => counts(pages),
      search: async (_term, options) => {
        const found = pages.filter((page) => Object.entries(options?.filters ?? {}).every(([filter, { any }]) => any.includes(page[filter]!)));
        return { results: found.map((page, n) => ({ id: String(n), score: 1, data: async () => ({ url: `/${page.colour}-${page.size}/`, excerpt: '', meta: {} }) })), unfilteredResultCount: pages.length, filters: counts(found) };
      },
    };
    return { instance, totals: counts(pages) };
  }
  const pages = [
    { colour: 'Navy', size: 'M' },
    { colour: 'Black', size: 'M' },
    { colour: 'Black', size: 'L' },
    { colour: 'White', size: 'L' },
  ];

  it('finds pages with any selected value of a filter, and every filter selected', async () => {
    const shards = [catalogue(pages.slice(0, 2)), catalogue(pages.slice(2))];
    const either = await searchShards(shards, null, { colour: ['Navy', 'White'] }, null);
    expect((await either.hits.next(10)).map((hit) => hit.url).sort()).toEqual(['/Navy-M/', '/White-L/']);
    const both = await searchShards(shards, null, { colour: ['Navy', 'White'], size: ['L'] }, null);
    expect((await both.hits.next(10)).map((hit) => hit.url)).toEqual(['/White-L/']);
  });

  it('counts in a filter with values selected what each of its values would find beside the other filters’ selection', async () => {
    const shards = [catalogue(pages.slice(0, 2)), catalogue(pages.slice(2))];
    const { filters } = await searchShards(shards, null, { colour: ['Navy'], size: ['M'] }, null);
    // Black is an alternative to Navy: selecting it too would add the one Black page in size M.
    expect(filters.colour).toEqual({ Navy: 1, Black: 1 });
    // L is an alternative to M: with Navy selected, it would add nothing (an absent count reads as 0).
    expect(filters.size!.M).toBe(1);
    expect(filters.size!.L ?? 0).toBe(0);
  });
});
