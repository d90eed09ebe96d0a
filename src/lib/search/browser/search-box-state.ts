// What the search box shows and remembers, as plain data: each change a function from the state
// before (and what happened) to the state after. No page, no storage, no timers: the time a change
// happens at is handed in (search-client.ts reads it from the clock it is given).
import type { KeptResult } from './kept-results.ts';
import type { FilterCounts, PagefindResultData } from '../query/pagefind-api.ts';
import { filterValueOrder } from '../query/result-view.ts';
import { SEARCH_FILTERS, type SearchFilter } from '../query/search-keys.ts';
import { countMessage, fillMessage, searchNote, type SearchMessages } from '../query/search-messages.ts';
import { isSearchable, searchQueryString, searchTerm, selectedFilters, type SearchState } from '../query/search-state.ts';
import type { GarmentSearch } from '../query/shard-search.ts';

/** Garments whose data is loaded at once; more on request. */
export const PAGE_SIZE = 10;
/** Pause after a keystroke before searching. */
export const TYPING_DELAY_MS = 200;
/** Words typed within this long of the last keep one history entry; after a longer pause, the search shown is kept and new words make an entry of their own. */
export const TYPING_RUN_MS = 1500;

/** The time, and waiting for it to pass: the page's own in the browser, a hand-moved one in tests. */
export interface Clock {
  /** Milliseconds from any fixed start. */
  now: () => number;
  wait: (ms: number) => Promise<void>;
}

/** How a search was asked for: while typing, by a request (Enter, a filter, the sort), or by an address Back or Forward restored. */
export type SearchMode = 'typing' | 'asked' | 'restored';

/** What a search found, but its hits: their count in their place. */
export type FoundSearch = Omit<GarmentSearch, 'hits'> & { count: number };

/** The help shown when nothing is found: words that would find garments, and whether clearing the filters is offered. */
export interface SearchHelp {
  shown: boolean;
  suggestions: string[];
  clearFilters: boolean;
}

export interface SearchBoxState {
  /** The search the address asks for; Back and Forward change it. */
  asked: SearchState;
  /** The number of the latest search: what comes for an older one is dropped. */
  latest: number;
  /** Garments per filter value over the whole site, from the shard list: the filters' values. */
  totals: FilterCounts;
  /** Garments per filter value under the search shown; null when not known. */
  counts: FilterCounts | null;
  /** Every filter file, which searches need to count per value: loaded once the reader opens a filter. */
  filterFiles: 'unasked' | 'loading' | 'loaded';
  /** Garments of the search shown, and how many of them the list shows. */
  count: number;
  shown: number;
  /** Whether "Show more" is offered. */
  more: boolean;
  status: string;
  /** The note on a corrected word. */
  note: string;
  help: SearchHelp;
  /** Whether the history entry was made for words being typed, and when they last changed. */
  typing: { entry: boolean; at: number };
}

/** A search's place in the history: a new entry, the current one replaced, or left as it is. */
export type HistoryStep = 'push' | 'replace' | null;

const NO_HELP: SearchHelp = { shown: false, suggestions: [], clearFilters: false };

/** The box as a page opens with it, for the search its address asks for. */
export function openedSearchBox(asked: SearchState): SearchBoxState {
  return {
    asked,
    latest: 0,
    totals: {},
    counts: null,
    filterFiles: 'unasked',
    count: 0,
    shown: 0,
    more: false,
    status: '',
    note: '',
    help: NO_HELP,
    typing: { entry: false, at: 0 },
  };
}

/** The page is only search and nothing is asked yet: it says what to do. */
export function promptShown(box: SearchBoxState, messages: SearchMessages): SearchBoxState {
  return { ...box, status: messages.prompt };
}

/** A new search begins: anything still coming for an older one is dropped. */
export function searchBegun(box: SearchBoxState): SearchBoxState {
  return { ...box, latest: box.latest + 1 };
}

/** Whether search number `id` is still the latest. */
export function isLatest(box: SearchBoxState, id: number): boolean {
  return id === box.latest;
}

/** The shard list has come (or the one kept from the last visit): the filters' values, their counts not known under a search. */
export function filterValuesRead(box: SearchBoxState, totals: FilterCounts): SearchBoxState {
  return { ...box, totals, counts: null };
}

/** Back or Forward restored an address: the search it asks for. */
export function addressRestored(box: SearchBoxState, asked: SearchState): SearchBoxState {
  return { ...box, asked };
}

/** The address of a search on the page at `location`: its query string; the hash stays, as the index page's no-script filters live there. */
export function searchAddress(location: { pathname: string; hash: string }, form: SearchState): string {
  const query = searchQueryString(form);
  return `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
}

/**
 * A search as the fields say, asked for at `now`: where it goes in the history (a new entry for each
 * search asked for, one for a run of typing), and what the box says until it is found. Nothing to
 * search for empties the list; `wait` is the typing delay before searching.
 */
export function searchAsked(
  box: SearchBoxState,
  {
    form,
    mode,
    address,
    now,
    messages,
  }: { form: SearchState; mode: SearchMode; address: { current: string; wanted: string }; now: number; messages: SearchMessages },
): { box: SearchBoxState; history: HistoryStep; wait: number } {
  const typing = mode === 'typing';
  let history: HistoryStep = null;
  let entry = box.typing;
  if (mode !== 'restored' && address.wanted !== address.current) {
    history = typing && entry.entry && now - entry.at < TYPING_RUN_MS ? 'replace' : 'push';
    entry = { entry: typing, at: now };
  }
  if (!typing) entry = { ...entry, entry: false };
  if (!isSearchable(form)) {
    const cleared = { ...box, typing: entry, count: 0, shown: 0, more: false, counts: null, note: '', help: helpFor(null, 0, form) };
    return { box: { ...cleared, status: messages.prompt }, history, wait: 0 };
  }
  return { box: { ...box, typing: entry, status: messages.loading }, history, wait: typing ? TYPING_DELAY_MS : 0 };
}

/**
 * A search found: its counts per filter value and how many garments, the list emptied for its
 * first garments to come (`garmentsShown`, then `summaryShown`).
 */
export function searchFound(box: SearchBoxState, found: FoundSearch): SearchBoxState {
  return { ...box, counts: found.filters, count: found.count, shown: 0 };
}

/** More garments of the search shown are in the list. */
export function garmentsShown(box: SearchBoxState, added: number): SearchBoxState {
  const shown = box.shown + added;
  return { ...box, shown, more: shown < box.count };
}

/** The result line, the note on a corrected or left-out word and the help, once a search's first garments are shown. */
export function summaryShown(box: SearchBoxState, form: SearchState, found: FoundSearch, messages: SearchMessages): SearchBoxState {
  return {
    ...box,
    note: searchNote(form, found, messages),
    help: helpFor(found, box.count, form),
    status: searchSummary(form, found, box.count, messages),
  };
}

/** Everything a search showed, at once: what a recent visit kept of it, or it run again when that differs. */
export function resultShown(
  box: SearchBoxState,
  form: SearchState,
  found: FoundSearch,
  first: number,
  messages: SearchMessages,
): SearchBoxState {
  return summaryShown(garmentsShown(searchFound(box, found), first), form, found, messages);
}

/** The search failed: the box says why. */
export function searchFailed(box: SearchBoxState, message: string, messages: SearchMessages): SearchBoxState {
  return { ...box, status: fillMessage(messages.unavailable, { message }) };
}

/** The filter files are asked for. */
export function filtersAsked(box: SearchBoxState): SearchBoxState {
  return { ...box, filterFiles: 'loading' };
}

/** Every filter file is loaded: searches from now on count per value. */
export function filtersLoaded(box: SearchBoxState): SearchBoxState {
  return { ...box, filterFiles: 'loaded' };
}

/** Whether searches count per filter value. */
export function counted(box: SearchBoxState): boolean {
  return box.filterFiles === 'loaded';
}

/** Counts per value for the search shown, found after its garments. */
export function countsFound(box: SearchBoxState, counts: FilterCounts | null): SearchBoxState {
  return { ...box, counts };
}

/**
 * How many garments each filter value would leave, as the filters show them: the search's, or with
 * no search, over every garment; null when not known.
 */
export function shownCounts(box: SearchBoxState, form: SearchState): FilterCounts | null {
  return box.counts ?? (isSearchable(form) ? null : box.totals);
}

/** Whether a search run again found what its kept result showed: as many garments, the same first ones in the same order, the same words. */
export function sameFound(kept: KeptResult, found: FoundSearch, first: readonly PagefindResultData[]): boolean {
  const { search } = kept;
  return (
    search.count === found.count &&
    search.searched === found.searched &&
    search.corrected === found.corrected &&
    first.length === kept.first.length &&
    first.every((data, at) => data.url === kept.first[at]!.url)
  );
}

/** A filter as the panel shows it: its values in order, which are ticked, and whether it opens. */
export interface FilterGroup {
  key: SearchFilter;
  label: string;
  values: { value: string; checked: boolean }[];
  /** Open when a value is ticked. */
  open: boolean;
}

/** The filters with any value, over the site and those the search asks for; a value no garment has any longer stays while asked for. */
export function filterGroups(totals: FilterCounts, form: SearchState, messages: SearchMessages): FilterGroup[] {
  return SEARCH_FILTERS.flatMap((key) => {
    const values = new Set([...Object.keys(totals[key] ?? {}), ...(form.filters[key] ?? [])]);
    if (values.size === 0) return [];
    const selected = new Set(form.filters[key] ?? []);
    const ordered = [...values].sort(filterValueOrder(key));
    return [
      {
        key,
        label: messages.filters[key],
        values: ordered.map((value) => ({ value, checked: selected.has(value) })),
        open: selected.size > 0,
      },
    ];
  });
}

/** A ticked filter value as a button that removes it. */
export interface FilterChip {
  filter: SearchFilter;
  value: string;
  /** What the button does, for a screen reader. */
  label: string;
}

/** The active filters, in the order the panel shows them. */
export function filterChips(form: SearchState, messages: SearchMessages): FilterChip[] {
  return SEARCH_FILTERS.flatMap((filter) =>
    (form.filters[filter] ?? []).map((value) => ({
      filter,
      value,
      label: fillMessage(messages.removeFilter, { filter: messages.filters[filter], value }),
    })),
  );
}

/** The result line: how many garments, for which words, in which filters. */
export function searchSummary(form: SearchState, found: Omit<GarmentSearch, 'hits'>, count: number, messages: SearchMessages): string {
  const filters = Object.values(selectedFilters(form)).flat().join(', ');
  const query = found.searched || form.query;
  if (searchTerm(form.query) === null)
    return count === 0 ? fillMessage(messages.noneFiltered, { filters }) : countMessage(messages.matches, count, { filters });
  if (count === 0) return fillMessage(filters ? messages.noneIn : messages.none, { query, filters });
  return countMessage(filters ? messages.resultsIn : messages.results, count, { query, filters });
}

/** With nothing found: words that would find garments, and clearing the filters. */
function helpFor(found: Omit<GarmentSearch, 'hits'> | null, count: number, form: SearchState): SearchHelp {
  return {
    shown: found !== null && count === 0,
    suggestions: found?.suggestions ?? [],
    clearFilters: Object.keys(selectedFilters(form)).length > 0,
  };
}
