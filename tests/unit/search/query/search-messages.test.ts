import { describe, expect, it } from 'vitest';
import { SEARCH_FILTERS } from '../../../../src/lib/search/query/search-keys.ts';
import { countMessage, fillMessage, searchMessages } from '../../../../src/lib/search/query/search-messages.ts';

describe('searchMessages', () => {
  it('names every filter', () => {
    const { filters } = searchMessages();
    for (const key of SEARCH_FILTERS) expect(filters[key], key).toMatch(/^\p{Lu}/u);
  });

  it('keeps the placeholders the script fills', () => {
    const messages = searchMessages();
    expect(messages.results.many).toContain('{count}');
    expect(messages.results.many).toContain('{query}');
    expect(messages.none).toContain('{query}');
    expect(messages.unavailable).toContain('{message}');
  });
});

describe('fillMessage', () => {
  it('fills named placeholders once, never expanding a value', () => {
    expect(fillMessage('No results for “{query}”.', { query: '{query} <b>' })).toBe('No results for “{query} <b>”.');
  });
});

describe('countMessage', () => {
  it('picks the one or many form and formats the count', () => {
    const forms = { one: '{count} result for “{query}”', many: '{count} results for “{query}”' };
    expect(countMessage(forms, 1, { query: 'tee' })).toBe('1 result for “tee”');
    expect(countMessage(forms, 1200, { query: 'tee' })).toBe('1,200 results for “tee”');
    expect(countMessage(forms, 0, { query: 'tee' })).toBe('0 results for “tee”');
  });
});
