import { t } from '../site/strings.ts';
import { SEARCH_FILTERS, type SearchFilter } from './search-keys.ts';

/**
 * The UI text the search script needs, handed to it as JSON in an attribute so the browser never
 * loads the whole strings module. Counted and quoted messages keep their `{count}` / `{query}` placeholders.
 */
export interface SearchMessages {
  filters: Record<SearchFilter, string>;
  prompt: string;
  loading: string;
  results: { one: string; many: string };
  matches: { one: string; many: string };
  none: string;
  noneFiltered: string;
  /** Names the research status beside each hit, for screen readers. */
  status: string;
  unavailable: string;
}

/** The search script's messages, from the strings module; placeholders without a value stay in place. */
export function searchMessages(): SearchMessages {
  return {
    filters: Object.fromEntries(SEARCH_FILTERS.map((key) => [key, t(`search.filter.${key}`)])) as Record<SearchFilter, string>,
    prompt: t('search.prompt'),
    loading: t('search.loading'),
    results: { one: t('search.results.one'), many: t('search.results.many') },
    matches: { one: t('search.matches.one'), many: t('search.matches.many') },
    none: t('search.none'),
    noneFiltered: t('search.noneFiltered'),
    status: t('record.researchStatus'),
    unavailable: t('search.unavailable'),
  };
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
