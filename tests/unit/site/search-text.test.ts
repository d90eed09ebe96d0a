import { describe, expect, it } from 'vitest';
import { SEARCH_FILTERS } from '../../../src/lib/search/query/search-keys.ts';
import { searchMessages } from '../../../src/lib/site/search-text.ts';

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
