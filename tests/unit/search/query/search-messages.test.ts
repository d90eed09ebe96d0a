import { describe, expect, it } from 'vitest';
import { countMessage, fillMessage } from '../../../../src/lib/search/query/search-messages.ts';

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
