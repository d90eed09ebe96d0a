import { describe, expect, it } from 'vitest';
import {
  garmentQuery,
  isSearchable,
  parseSearchState,
  searchPageAddress,
  searchQueryString,
  searchTerm,
  selectedFilters,
} from '../../../../src/lib/search/query/search-state.ts';

const params = (query: string) => new URLSearchParams(query);

describe('parseSearchState', () => {
  it('reads the words, the filters and the sort from a query string', () => {
    expect(parseSearchState(params('q=+fleece+&projection=Technical&fiber=cotton&fiber=elastane&sort=published'))).toEqual({
      query: 'fleece',
      filters: { projection: ['Technical'], fiber: ['cotton', 'elastane'] },
      sort: 'published',
    });
  });

  it('ignores unknown parameters, unknown sorts, empty and repeated values', () => {
    expect(parseSearchState(params('q=&color=&color=Navy&color=Navy&utm_source=x&constructor=1&sort=size'))).toEqual({
      query: '',
      filters: { color: ['Navy'] },
      sort: null,
    });
  });

  it('reads the sorts by price and weight, both lowest first', () => {
    expect(parseSearchState(params('q=tee&sort=price')).sort).toBe('price');
    expect(garmentQuery(parseSearchState(params('q=tee&sort=price')), false).sort).toEqual({ key: 'price', direction: 'asc' });
    expect(garmentQuery(parseSearchState(params('q=tee&sort=weight')), false).sort).toEqual({ key: 'weight', direction: 'asc' });
  });

  it('reads a size as the size filter spells it, however the address wrote it', () => {
    expect(parseSearchState(params('size=xxl&size=2XL&size=+xxxl+&size=One+size')).filters).toEqual({ size: ['2XL', '3XL', 'One size'] });
  });

  it("reads the filters' former names (colour, fibre) from addresses kept before they took the schema's spelling", () => {
    expect(parseSearchState(params('colour=Navy&fibre=cotton&color=Black'))).toEqual({
      query: '',
      filters: { color: ['Navy', 'Black'], fiber: ['cotton'] },
      sort: null,
    });
  });

  it('reads back what searchQueryString writes', () => {
    const state = { query: 'heavy tee & co', filters: { size: ['2XL'], projection: ['Commerce'] }, sort: 'title' as const };
    expect(parseSearchState(params(searchQueryString(state)))).toEqual(state);
  });
});

describe('searchQueryString', () => {
  it('writes q first, the filters in the order the search shows them, then the sort', () => {
    expect(searchQueryString({ query: 'fleece', filters: { size: ['S'], projection: ['Technical'] }, sort: 'title' })).toBe(
      'q=fleece&projection=Technical&size=S&sort=title',
    );
  });

  it('writes nothing for an empty search', () => {
    expect(searchQueryString({ query: '', filters: {}, sort: null })).toBe('');
  });
});

describe('isSearchable', () => {
  it('needs words or at least one filter value', () => {
    expect(isSearchable({ query: '', filters: {}, sort: 'title' })).toBe(false);
    expect(isSearchable({ query: '', filters: { color: [] }, sort: null })).toBe(false);
    expect(isSearchable({ query: 'tee', filters: {}, sort: null })).toBe(true);
    expect(isSearchable({ query: '', filters: { color: ['Navy'] }, sort: null })).toBe(true);
    expect(isSearchable({ query: '$', filters: {}, sort: null })).toBe(false);
  });
});

describe('selectedFilters', () => {
  it('keeps the filters with values selected', () => {
    expect(selectedFilters({ query: 'x', filters: { color: ['Navy', 'Black'], size: [] }, sort: null })).toEqual({
      color: ['Navy', 'Black'],
    });
  });
});

describe('searchTerm', () => {
  it('leaves out currency signs, which the index does not hold, and searches for nothing without words', () => {
    expect(searchTerm('$12.95')).toBe('12.95');
    expect(searchTerm('€ 30 fleece £')).toBe('30 fleece');
    expect(searchTerm('  ')).toBeNull();
    expect(searchTerm('$')).toBeNull();
  });
});

describe('garmentQuery', () => {
  it('asks the index for the words without currency signs, the selected filters only, and the sort with its direction', () => {
    expect(garmentQuery({ query: ' $12 tee ', filters: { color: ['Navy'], size: [] }, sort: 'published' }, true)).toEqual({
      words: '12 tee',
      filters: { color: ['Navy'] },
      sort: { key: 'published', direction: 'desc' },
      counts: true,
    });
    expect(garmentQuery({ query: '', filters: {}, sort: null }, false)).toEqual({ words: '', filters: {}, sort: null, counts: false });
  });
});

describe('searchPageAddress', () => {
  it('sends a search in a listing page’s address to the search page, what it does not know left out', () => {
    expect(searchPageAddress('?q=fleece&utm_source=mail')).toBe('/search/?q=fleece');
    expect(searchPageAddress('?q=navy+4XL&size=xxl&sort=price')).toBe('/search/?q=navy+4XL&size=2XL&sort=price');
    expect(searchPageAddress('?color=Navy')).toBe('/search/?color=Navy');
  });

  it('keeps a category page’s search within its category', () => {
    expect(searchPageAddress('?q=tee', 'tops')).toBe('/search/?q=tee&category=tops');
    expect(searchPageAddress('?q=tee&category=tops', 'tops')).toBe('/search/?q=tee&category=tops');
  });

  it('sends nothing when the address asks for no search', () => {
    for (const query of ['', '?q=', '?q=+', '?utm_source=mail', '?sort=price', '?q=$']) expect(searchPageAddress(query), query).toBeNull();
  });
});
