// The search box in the browser: the site's search (shard-search.ts) behind plain fields. The
// fields are the search state, mirrored in the query string (`?q=fleece&projection=Technical&sort=title`).
// This file wires the page (search-box-view.ts) to the box's state (search-box-state.ts) and the index (search-index-opening.ts).
import type { FilterCounts, PagefindResultData } from '../query/pagefind-api.ts';
import { garmentQuery, isSearchable, parseSearchState, type SearchState } from '../query/search-state.ts';
import { NO_HITS, type GarmentSearch, type ShardHits } from '../query/shard-search.ts';
import {
  addressRestored,
  type Clock,
  counted,
  countsFound,
  filterChips,
  filterGroups,
  filtersAsked,
  filtersLoaded,
  filterValuesRead,
  type FoundSearch,
  garmentsShown,
  isLatest,
  openedSearchBox,
  PAGE_SIZE,
  promptShown,
  resultShown,
  sameFound,
  searchAddress,
  searchAsked,
  searchBegun,
  type SearchBoxState,
  searchFailed,
  searchFound,
  type SearchMode,
  shownCounts,
  summaryShown,
} from './search-box-state.ts';
import { searchBoxView, type SearchBoxView } from './search-box-view.ts';
import { openSearch, type SearchOpening } from './search-index-opening.ts';
import { errorMessage } from '../../errors.ts';

/** The page's own time. */
const PAGE_CLOCK: Clock = { now: () => performance.now(), wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

/** One search box on the page: its view, its state, the index once opened and the hits of the search shown. */
interface Session {
  view: SearchBoxView;
  clock: Clock;
  box: SearchBoxState;
  opening: SearchOpening | null;
  hits: ShardHits;
}

/**
 * Brings a rendered SearchBox to life: loads Pagefind when the reader reaches for the box
 * (at once on the search page, or when the URL already asks for a search), then searches as its fields change.
 */
export function mountSearch(root: HTMLElement, clock: Clock = PAGE_CLOCK): void {
  const session: Session = {
    view: searchBoxView(root, {
      typed: () => void run(session, 'typing'),
      asked: () => void run(session, 'asked'),
      filterOpened: () => loadCounts(session),
      more: async () => void (await showMore(session, session.box.latest)),
      reached: () => void load(session).current.catch(() => {}),
    }),
    clock,
    box: openedSearchBox(parseSearchState(new URLSearchParams(location.search))),
    opening: null,
    hits: NO_HITS,
  };
  const { view } = session;
  view.fill(session.box.asked);
  view.showChips(filterChips(session.box.asked, view.messages));
  // A page that is only search shows its filters at once, to browse by before a word is typed.
  if (view.searchPage) void load(session).current.catch(() => {});
  window.addEventListener('popstate', () => {
    session.box = addressRestored(session.box, parseSearchState(new URLSearchParams(location.search)));
    view.fill(session.box.asked);
    void run(session, 'restored');
  });
  if (isSearchable(session.box.asked)) void run(session, 'restored');
  // The search page says what to do from the start; the home page's box, once reached for.
  else if (view.searchPage) update(session, promptShown(session.box, view.messages));
}

/** The box in a new state, shown. */
function update(session: Session, box: SearchBoxState): void {
  session.box = box;
  session.view.show(box, shownCounts(box, session.view.form()));
}

/** The filters' values have come, for the search `form`. */
function showFilters(session: Session, totals: FilterCounts, form: SearchState): void {
  session.box = filterValuesRead(session.box, totals);
  session.view.showFilters(filterGroups(totals, form, session.view.messages));
  update(session, session.box);
}

/** The site's search, opened the first time it is wanted; its filters shown as soon as their values are known. */
function load(session: Session): SearchOpening {
  if (session.opening) return session.opening;
  const opened = openSearch();
  session.opening = opened;
  const kept = opened.keptFilters;
  if (kept) showFilters(session, kept, session.box.asked);
  void opened.current
    .then((filters) => filters && showFilters(session, filters, kept ? session.view.form() : session.box.asked))
    .catch(() => {});
  return opened;
}

/** Searches for what the form says: while typing, after a request (Enter, a filter, the sort), or for an address Back or Forward restored. */
async function run(session: Session, mode: SearchMode): Promise<void> {
  const { view } = session;
  session.box = searchBegun(session.box);
  const id = session.box.latest;
  const opened = load(session);
  try {
    // The filter boxes are made from the shard list: from the kept one at once, else once it comes.
    if (!opened.keptFilters) await opened.current;
  } catch (error) {
    update(session, searchFailed(session.box, errorMessage(error), view.messages));
    return;
  }
  if (!isLatest(session.box, id)) return;
  // Read after loading: the filter boxes exist only once the shard list has named the values.
  const form = view.form();
  const address = { current: `${location.pathname}${location.search}${location.hash}`, wanted: searchAddress(location, form) };
  const asked = searchAsked(session.box, { form, mode, address, now: session.clock.now(), messages: view.messages });
  if (asked.history === 'push') history.pushState(history.state, '', address.wanted);
  if (asked.history === 'replace') history.replaceState(history.state, '', address.wanted);
  view.showChips(filterChips(form, view.messages));
  if (!isSearchable(form)) {
    session.hits = NO_HITS;
    view.list([]);
  }
  update(session, asked.box);
  if (!isSearchable(form)) return;
  if (asked.wait > 0) await session.clock.wait(asked.wait);
  if (isLatest(session.box, id)) await search(session, id, form, opened);
}

/** Runs search number `id`, showing at once what a recent visit kept of it. */
async function search(session: Session, id: number, form: SearchState, opened: SearchOpening): Promise<void> {
  const { view } = session;
  const query = garmentQuery(form, counted(session.box));
  const live = opened.search(query);
  live.catch(() => {});
  const kept = await opened.keptResult(query);
  if (!isLatest(session.box, id)) return;
  // "Show more" on the kept garments waits for the search run again, moved past them.
  let follow: (live: Promise<ShardHits>) => void = () => {};
  const following = new Promise<ShardHits>((resolve) => (follow = resolve));
  following.catch(() => {});
  if (kept) {
    session.hits = { count: kept.search.count, next: async (count, onData) => (await following).next(count, onData) };
    view.list(kept.first);
    update(session, resultShown(session.box, form, kept.search, kept.first.length, view.messages));
  }
  let found: GarmentSearch;
  try {
    found = await live;
  } catch (error) {
    follow(Promise.reject(error as Error));
    if (isLatest(session.box, id)) update(session, searchFailed(session.box, errorMessage(error), view.messages));
    return;
  }
  if (!isLatest(session.box, id)) return;
  const { hits, ...rest } = found;
  const summary: FoundSearch = { ...rest, count: hits.count };
  let first: PagefindResultData[];
  if (kept && hits.count === kept.search.count) {
    // The kept garments' data, from the search run again (its one cursor moves past them): shown again only if they differ, which they should not.
    first = await hits.next(kept.first.length);
    if (!isLatest(session.box, id)) return;
    session.hits = hits;
    if (!sameFound(kept, summary, first)) {
      view.list(first);
      update(session, resultShown(session.box, form, summary, first.length, view.messages));
    }
  } else {
    session.hits = hits;
    view.list([]);
    update(session, searchFound(session.box, summary));
    first = await showMore(session, id);
    if (!isLatest(session.box, id)) return;
    update(session, summaryShown(session.box, form, summary, view.messages));
  }
  follow(Promise.resolve(hits));
  opened.keep(query, found, first);
  // The filter files came while this searched without them: count now.
  if (found.filters === null && counted(session.box)) void refreshCounts(session, id).catch(() => {});
  // A filter shown open (one with a value ticked) shows its counts too, once the garments are shown.
  else if (view.filterOpen()) loadCounts(session);
}

/** Shows the next garments, each as soon as it and those before it are loaded; returns their data. */
async function showMore(session: Session, id: number): Promise<PagefindResultData[]> {
  const data = await session.hits.next(PAGE_SIZE, (hit) => {
    if (isLatest(session.box, id)) session.view.add(hit);
  });
  if (!isLatest(session.box, id)) return [];
  update(session, garmentsShown(session.box, data.length));
  return data;
}

/** Loads every filter file, then counts what each value would leave, the garments shown (and "Show more" clicked) left as they are. */
function loadCounts(session: Session): void {
  if (session.box.filterFiles !== 'unasked') return;
  session.box = filtersAsked(session.box);
  void load(session)
    .loadFilters()
    .then(() => {
      session.box = filtersLoaded(session.box);
      return refreshCounts(session, session.box.latest);
    })
    .catch(() => {});
}

/** Shows the counts for the search shown (number `id`), unless another has started since. */
async function refreshCounts(session: Session, id: number): Promise<void> {
  const form = session.view.form();
  if (!isLatest(session.box, id) || !isSearchable(form)) return;
  const found = await load(session).search(garmentQuery(form, counted(session.box)));
  if (isLatest(session.box, id)) update(session, countsFound(session.box, found.filters));
}
