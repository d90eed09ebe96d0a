import type { Projection } from '../../record/projections.ts';
import type { SearchFilter } from './search-keys.ts';
import type { SearchState } from './search-state.ts';
import type { GarmentSearch } from './shard-search.ts';

/**
 * The UI text the search script needs, handed to it as JSON in an attribute so the browser never
 * loads the whole strings module (site/search-text.ts makes it from there). Counted and quoted
 * messages keep their `{count}` / `{query}` placeholders.
 */
export interface SearchMessages {
  filters: Record<SearchFilter, string>;
  prompt: string;
  loading: string;
  results: { one: string; many: string };
  resultsIn: { one: string; many: string };
  matches: { one: string; many: string };
  none: string;
  noneIn: string;
  noneFiltered: string;
  corrected: string;
  /** A search run without words no garment says: `{dropped}` names them, each quoted. */
  dropped: string;
  suggest: string;
  suggestFor: string;
  activeFilters: string;
  removeFilter: string;
  priceFrom: string;
  sizes: string;
  projections: string;
  /** A record page's link, by projection code. */
  projectionLinks: Record<Projection, string>;
  browseAll: string;
  clearFilters: string;
  /** Names the research status beside each hit, for screen readers. */
  status: string;
  unavailable: string;
}

/**
 * A message with its named placeholders filled, as the strings module fills them (one pass, so a
 * value holding `{name}` is never expanded).
 * @example fillMessage('{count} results for “{query}”', { count: 2, query: 'fleece' }) → '2 results for “fleece”'
 */
export function fillMessage(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * A counted message: `one` when count is 1, else `many`, with `{count}` formatted.
 * @example countMessage({ one: '{count} page', many: '{count} pages' }, 1200) → '1,200 pages'
 */
export function countMessage(forms: { one: string; many: string }, count: number, values: Record<string, string> = {}): string {
  return fillMessage(count === 1 ? forms.one : forms.many, { ...values, count: count.toLocaleString('en') });
}

/**
 * The note above the garments when the search is not quite what was asked (the search page's and the MCP tool's):
 * words left out (a misspelling among those searched is then shown as the word searched), or a misspelling replaced.
 * @example searchNote(form('fleece xqxq'), { dropped: ['xqxq'], searched: 'fleece', … }, messages) → 'No garment says “xqxq”; showing garments for “fleece”.'
 */
export function searchNote(
  form: Pick<SearchState, 'query'>,
  found: Pick<GarmentSearch, 'corrected' | 'dropped' | 'searched'>,
  messages: SearchMessages,
): string {
  if (found.dropped.length > 0) {
    const dropped = new Intl.ListFormat('en', { type: 'disjunction' }).format(found.dropped.map((word) => `“${word}”`));
    return fillMessage(messages.dropped, { dropped, searched: found.searched });
  }
  return found.corrected ? fillMessage(messages.corrected, { asked: form.query, searched: found.searched }) : '';
}
