// The search's words from strings.ts, for the search page (as data for its script) and the MCP tool.
// Apart from search/query/search-messages.ts, so the browser's search never loads the strings module.
import type { SearchMessages } from '../search/query/search-messages.ts';
import { SEARCH_FILTERS, type SearchFilter } from '../search/query/search-keys.ts';
import { humanize, lookup, projectionLabel, t } from './strings.ts';

/** The search script's messages, from the strings module; placeholders without a value stay in place. */
export function searchMessages(): SearchMessages {
  return {
    // A filter without a name in strings.ts yet is named by its key in words.
    filters: Object.fromEntries(SEARCH_FILTERS.map((key) => [key, lookup(`search.filter.${key}`) ?? humanize(key)])) as Record<
      SearchFilter,
      string
    >,
    prompt: t('search.prompt'),
    loading: t('search.loading'),
    results: { one: t('search.results.one'), many: t('search.results.many') },
    resultsIn: { one: t('search.resultsIn.one'), many: t('search.resultsIn.many') },
    matches: { one: t('search.matches.one'), many: t('search.matches.many') },
    none: t('search.none'),
    noneIn: t('search.noneIn'),
    noneFiltered: t('search.noneFiltered'),
    corrected: t('search.corrected'),
    dropped: t('search.dropped'),
    suggest: t('search.suggest'),
    suggestFor: t('search.suggestFor'),
    activeFilters: t('search.activeFilters'),
    removeFilter: t('search.removeFilter'),
    priceFrom: t('search.hit.priceFrom'),
    sizes: t('search.hit.sizes'),
    projections: t('search.hit.projections'),
    projectionLinks: {
      svc: t('search.hit.projectionLink', { projection: projectionLabel('svc') }),
      tech: t('search.hit.projectionLink', { projection: projectionLabel('tech') }),
    },
    browseAll: t('search.browseAll'),
    clearFilters: t('search.clearFilters'),
    status: t('record.researchStatus'),
    unavailable: t('search.unavailable'),
  };
}
