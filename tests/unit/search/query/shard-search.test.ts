import { describe, expect, it } from 'vitest';
import type { PagefindResult } from '../../../../src/lib/search/query/pagefind-api.ts';
import { mergeFilterCounts, queryWords, sortedHits } from '../../../../src/lib/search/query/shard-search.ts';

/** A hit as Pagefind gives it: its score, and its data loaded on demand (counted). */
function hit(url: string, score: number, title: string, published: string, loads: string[]): PagefindResult {
  const data = async () => {
    loads.push(url);
    return { url, excerpt: '', meta: { title, published } };
  };
  return { id: url, score, data };
}

describe('queryWords', () => {
  it('reads a query as Pagefind does: lower case, accents, punctuation and currency signs dropped', () => {
    expect(queryWords('  T-shirt  Café $12.95 “Fleece” ')).toEqual(['tshirt', 'cafe', '1295', 'fleece']);
    expect(queryWords(' ')).toEqual([]);
  });

  it('spells a size as the index holds it, however it is typed', () => {
    expect(queryWords('navy XXXXL 4XL 2-XL')).toEqual(['navy', '4xl', '4xl', '2xl']);
  });
});

describe('mergeFilterCounts', () => {
  it('sums the counts of each filter value over several searches', () => {
    expect(mergeFilterCounts([{ color: { Navy: 2, Black: 1 } }, undefined, { color: { Navy: 3 }, size: { M: 1 } }])).toEqual({
      color: { Navy: 5, Black: 1 },
      size: { M: 1 },
    });
  });
});

describe('sortedHits', () => {
  const loads: string[] = [];
  const a = [hit('/a/', 0.9, 'Anorak', '2026-01-03', loads), hit('/c/', 0.2, 'Cap', '2026-01-01', loads)];
  const b = [hit('/b/', 0.5, 'Beanie', '2026-01-04', loads), hit('/d/', 0.7, 'Duffel', '2026-01-02', loads)];

  it('merges lists sorted in their shards by the sort key, whatever their scores, loading only the hits it needs', async () => {
    const byTitle = sortedHits([a, b], { key: 'title', direction: 'asc' });
    expect(byTitle.count).toBe(4);
    loads.length = 0;
    expect((await byTitle.next(2)).map((d) => d.url)).toEqual(['/a/', '/b/']);
    // The two heads, then the next head of the list taken from: Duffel is not loaded yet.
    expect(loads.sort()).toEqual(['/a/', '/b/', '/c/']);
    expect((await byTitle.next(5)).map((d) => d.url)).toEqual(['/c/', '/d/']);
  });

  it('merges by price, lowest first, a garment without one last', async () => {
    const priced = (url: string, price?: string): PagefindResult => ({
      id: url,
      score: 1,
      data: async () => ({ url, excerpt: '', meta: { title: url, ...(price ? { price_sort: price } : {}) } }),
    });
    const byPrice = sortedHits(
      [
        [priced('/a/', '000000001840'), priced('/c/')],
        [priced('/b/', '000000000999'), priced('/d/', '000000010000')],
      ],
      { key: 'price', direction: 'asc' },
    );
    expect((await byPrice.next(10)).map((d) => d.url)).toEqual(['/b/', '/a/', '/d/', '/c/']);
  });

  it('gives calls made together consecutive batches, each in order: a second "Show more" while the first loads repeats no hit', async () => {
    const byTitle = sortedHits([a, b], { key: 'title', direction: 'asc' });
    const shown: string[] = [];
    const batches = await Promise.all([byTitle.next(2, (data) => shown.push(data.url)), byTitle.next(2, (data) => shown.push(data.url))]);
    expect(batches.map((batch) => batch.map((d) => d.url))).toEqual([
      ['/a/', '/b/'],
      ['/c/', '/d/'],
    ]);
    expect(shown).toEqual(['/a/', '/b/', '/c/', '/d/']);
  });

  it('merges by the latest publication, newest first', async () => {
    const newest = sortedHits(
      [
        [a[0]!, a[1]!],
        [b[0]!, b[1]!],
      ],
      { key: 'published', direction: 'desc' },
    );
    expect((await newest.next(4)).map((d) => d.url)).toEqual(['/b/', '/a/', '/d/', '/c/']);
  });
});
