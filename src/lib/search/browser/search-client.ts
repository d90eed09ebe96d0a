// The search box in the browser: the site's search (shard-search.ts) behind plain fields. The
// fields are the search state, mirrored in the query string (`?q=fleece&projection=Technical&sort=title`).
import { findKeptResult, keepResult, readKeptResults, type KeptResult } from './kept-results.ts';
import type { FilterCounts, PagefindResultData } from '../query/pagefind-api.ts';
import { filterValueOrder, resultFacts, resultView, type ResultView } from '../query/result-view.ts';
import { SEARCH_FILTERS, type SearchFilter } from '../query/search-keys.ts';
import { countMessage, fillMessage, type SearchMessages } from '../query/search-messages.ts';
import { SHARD_LIST_PATH, type ShardList } from '../query/shard-list.ts';
import {
  garmentQuery,
  isSearchable,
  parseSearchState,
  searchQueryString,
  searchTerm,
  selectedFilters,
  type SearchState,
} from '../query/search-state.ts';
import { openInThread, type ThreadIndex } from './search-thread.ts';
import { NO_HITS, type GarmentQuery, type GarmentSearch, type ShardHits } from '../query/shard-search.ts';

/** Garments whose data is loaded at once; more on request. */
const PAGE_SIZE = 10;
/** Pause after a keystroke before searching. */
const TYPING_DELAY_MS = 200;
/** Words typed within this long of the last keep one history entry; after a longer pause, the search shown is kept and new words make an entry of their own. */
const TYPING_RUN_MS = 1500;

/** Where the page keeps the shard list it last read (localStorage). */
const KEPT_SHARD_LIST = 'garment-press:search-shards';
/** Where the page keeps what it showed for recent searches (kept-results.ts). */
const KEPT_RESULTS = 'garment-press:search-results';
/** The search script's own address: content-hashed by the build, so results ranked by other code are never shown. */
const SEARCH_SCRIPT = import.meta.url;

/** The index being opened: from the shard list kept from the last visit (null without one), and from the list as the site has it now. */
interface IndexOpening {
  early: ThreadIndex | null;
  current: Promise<ThreadIndex>;
  /** The text of the shard list as the site has it now, which kept results are kept for. */
  listText: Promise<string>;
}

/** The shard list kept from the last visit, as its text (to compare) and read; null when none is kept or storage is refused. */
function keptShardList(): { text: string; list: ShardList } | null {
  try {
    const text = localStorage.getItem(KEPT_SHARD_LIST);
    return text === null ? null : { text, list: JSON.parse(text) as ShardList };
  } catch {
    return null;
  }
}

function keepShardList(text: string): void {
  try {
    // Results kept for the list replaced were found in an index the site no longer has.
    localStorage.removeItem(KEPT_RESULTS);
    localStorage.setItem(KEPT_SHARD_LIST, text);
  } catch {
    // Storage refused or full: the next visit waits for the list, as this one did.
  }
}

/**
 * Brings a rendered SearchBox to life: loads Pagefind when the reader reaches for the box
 * (at once on the search page, or when the URL already asks for a search), then searches as its fields change.
 */
export function mountSearch(root: HTMLElement): void {
  const input = root.querySelector<HTMLInputElement>('input[name="q"]')!;
  const sort = root.querySelector<HTMLSelectElement>('select[name="sort"]')!;
  const submit = root.querySelector<HTMLButtonElement>('[data-search-submit]')!;
  const filtersBox = root.querySelector<HTMLElement>('[data-search-filters]')!;
  const filtersHeading = root.querySelector<HTMLElement>('[data-search-filters-heading]')!;
  const clearButton = root.querySelector<HTMLButtonElement>('[data-search-clear]')!;
  const status = root.querySelector<HTMLElement>('[data-search-status]')!;
  const list = root.querySelector<HTMLOListElement>('[data-search-results]')!;
  const moreButton = root.querySelector<HTMLButtonElement>('[data-search-more]')!;
  const messages = JSON.parse(root.dataset.messages!) as SearchMessages;
  const chips = root.querySelector<HTMLUListElement>('[data-search-chips]')!;
  const note = root.querySelector<HTMLElement>('[data-search-note]')!;
  const help = root.querySelector<HTMLElement>('[data-search-help]')!;
  const suggestions = root.querySelector<HTMLUListElement>('[data-search-suggestions]')!;
  const helpClear = root.querySelector<HTMLButtonElement>('[data-search-help-clear]')!;

  let opening: IndexOpening | null = null;
  let totals: FilterCounts = {};
  // Counts per value under a search need every filter file: loaded once the reader opens a filter, searched with once loaded.
  let counting: Promise<unknown> | null = null;
  let counted = false;
  let hits = NO_HITS;
  let shown = 0;
  let searchId = 0;

  // The search the address asks for; Back and Forward change it.
  let asked = parseSearchState(new URLSearchParams(location.search));
  input.value = asked.query;
  sort.value = asked.sort ?? '';
  renderChips(asked);
  // Whether the current history entry was made for words being typed, and when they last changed: words
  // typed soon after replace them in it, words typed after a pause (or after Enter) make an entry of their own.
  let typingEntry = false;
  let typedAt = 0;

  /**
   * The shard list names every shard and carries the filter values, so the filters show before
   * Pagefind loads. Asking for it is a round trip on every visit (a rebuild changes it under the
   * same name), so the index the list kept from the last visit names is opened meanwhile.
   */
  const load = (): IndexOpening =>
    (opening ??= (() => {
      // Asked for first: the kept index's files are read from the cache after it, not before.
      const asking = fetch(SHARD_LIST_PATH);
      const kept = keptShardList();
      // Not warmed up: what the kept list names came on the last visit and waits in the cache.
      const early = kept ? openInThread(kept.list) : null;
      if (kept) {
        totals = kept.list.filters;
        renderFilters(asked);
      }
      const listText = (async () => {
        const response = await asking;
        if (!response.ok) throw new Error(`${SHARD_LIST_PATH}: HTTP ${response.status}`);
        return response.text();
      })();
      const current = (async () => {
        const text = await listText;
        if (early && kept?.text === text) return early;
        early?.close();
        const list = JSON.parse(text) as ShardList;
        keepShardList(text);
        totals = list.filters;
        renderFilters(kept ? formState() : asked);
        return openIndex(list);
      })();
      return { early, current, listText };
    })());

  function openIndex(list: ShardList): ThreadIndex {
    const opened = openInThread(list);
    warmUp(list);
    return opened;
  }

  /**
   * Searches the index of the shard list as it is now: run on the kept list's index while the list
   * is asked for again, and kept only if the list comes back the same.
   */
  async function searchCurrent(query: GarmentQuery): Promise<GarmentSearch> {
    const { early, current } = load();
    if (early) {
      const found = early.search(query);
      found.catch(() => {});
      if ((await current) === early) return found;
    }
    return (await current).search(query);
  }

  /**
   * Asks at once for what the search thread would fetch one step after another (Pagefind's script,
   * its WebAssembly, each shard's metadata; the entry files are in the list): named by content, they
   * wait in the cache for Pagefind to ask. Errors are Pagefind's to report.
   */
  function warmUp(list: ShardList): void {
    // Pagefind's script first: the thread asks for it as soon as its own script has come.
    const files = list.shards.length > 0 ? [`${list.shards[0]}pagefind.js`, `${list.shards[0]}wasm.en.pagefind`] : [];
    for (const [at, bundle] of list.shards.entries()) files.push(`${bundle}pagefind.${list.tags[at]}.pf_meta`);
    for (const file of files)
      void fetch(file)
        .then((answer) => answer.arrayBuffer())
        .catch(() => {});
  }

  /** Searches for what the form says: while typing, after a request (Enter, a filter, the sort), or for an address Back or Forward restored. */
  async function run(mode: 'typing' | 'asked' | 'restored'): Promise<void> {
    const typing = mode === 'typing';
    const id = ++searchId;
    const { early, current } = load();
    try {
      // The filter boxes are made from the shard list: from the kept one at once, else once it comes.
      if (!early) await current;
    } catch (error) {
      setStatus(fillMessage(messages.unavailable, { message: (error as Error).message }));
      return;
    }
    if (id !== searchId) return;
    // Read after loading: the filter boxes exist only once the shard list has named the values.
    const state = formState();
    if (mode !== 'restored') writeUrl(state, typing);
    if (!typing) typingEntry = false;
    renderChips(state);
    if (!isSearchable(state)) {
      hits = NO_HITS;
      list.replaceChildren();
      moreButton.hidden = true;
      showHelp(null, state);
      updateCounts(null);
      note.textContent = '';
      setStatus(messages.prompt);
      return;
    }
    setStatus(messages.loading);
    if (typing) await new Promise((resolve) => setTimeout(resolve, TYPING_DELAY_MS));
    if (id !== searchId) return;
    const query = garmentQuery(state, counted);
    const live = searchCurrent(query);
    live.catch(() => {});
    // What this search showed on a recent visit to the same index, shown at once while it runs again.
    const kept = await keptResultOf(query);
    if (id !== searchId) return;
    // "Show more" on the kept garments waits for the search run again, moved past them.
    let follow: (live: Promise<ShardHits>) => void = () => {};
    const following = new Promise<ShardHits>((resolve) => (follow = resolve));
    following.catch(() => {});
    if (kept) {
      hits = { count: kept.search.count, next: async (count, onData) => (await following).next(count, onData) };
      showFound(state, kept.search, kept.first);
    }
    let found: GarmentSearch;
    try {
      found = await live;
    } catch (error) {
      follow(Promise.reject(error as Error));
      if (id === searchId) setStatus(fillMessage(messages.unavailable, { message: (error as Error).message }));
      return;
    }
    if (id !== searchId) return;
    let first: PagefindResultData[];
    if (kept && found.hits.count === kept.search.count) {
      // The kept garments' data, from the search run again (its one cursor moves past them): shown again only if they differ, which they should not.
      first = await found.hits.next(kept.first.length);
      if (id !== searchId) return;
      hits = found.hits;
      if (!sameFound(kept, found, first)) showFound(state, found, first);
    } else {
      updateCounts(found.filters);
      hits = found.hits;
      shown = 0;
      list.replaceChildren();
      first = await showMore(id);
      if (id !== searchId) return;
      showSummary(state, found);
    }
    follow(Promise.resolve(found.hits));
    keepShown(query, found, first);
    // The filter files came while this searched without them: count now.
    if (found.filters === null && counted) void refreshCounts(id).catch(() => {});
    // A filter shown open (one with a value ticked) shows its counts too, once the garments are shown.
    else if (filtersBox.querySelector('details[open]')) loadCounts();
  }

  /** Shows the next garments, each as soon as it and those before it are loaded; returns their data. */
  async function showMore(id: number): Promise<PagefindResultData[]> {
    const data = await hits.next(PAGE_SIZE, (hit) => {
      const view = id === searchId ? resultView(hit) : null;
      if (view) list.append(resultItem(view));
    });
    if (id !== searchId) return [];
    shown += data.length;
    moreButton.hidden = shown >= hits.count;
    return data;
  }

  /** Shows at once what a search found, its first garments' data loaded: `hits` is already its hits. */
  function showFound(state: SearchState, found: Omit<GarmentSearch, 'hits'>, first: PagefindResultData[]): void {
    updateCounts(found.filters);
    list.replaceChildren(
      ...first.flatMap((data) => {
        const view = resultView(data);
        return view ? [resultItem(view)] : [];
      }),
    );
    shown = first.length;
    moreButton.hidden = shown >= hits.count;
    showSummary(state, found);
  }

  /** The note on a corrected word, the help when nothing is found, and the result line. */
  function showSummary(state: SearchState, found: Omit<GarmentSearch, 'hits'>): void {
    note.textContent = found.corrected ? fillMessage(messages.corrected, { asked: state.query, searched: found.searched }) : '';
    showHelp(found, state);
    setStatus(summary(state, found, hits.count));
  }

  /** What a search showed on a recent visit to the index the shard list names now, or null; known once the list has come. */
  async function keptResultOf(query: GarmentQuery): Promise<KeptResult | null> {
    try {
      const listText = await load().listText;
      return findKeptResult(readKeptResults(localStorage.getItem(KEPT_RESULTS), listText, SEARCH_SCRIPT), query);
    } catch {
      // Storage refused, or no list: the search shows when it has run, as without kept results.
      return null;
    }
  }

  /** Keeps what a search showed, for a repeat visit. */
  function keepShown(query: GarmentQuery, { hits: { count }, ...found }: GarmentSearch, first: PagefindResultData[]): void {
    void load().listText.then(
      (listText) => {
        try {
          // Read again: another tab may have kept searches since.
          localStorage.setItem(
            KEPT_RESULTS,
            keepResult(readKeptResults(localStorage.getItem(KEPT_RESULTS), listText, SEARCH_SCRIPT), query, {
              search: { ...found, count },
              first,
            }),
          );
        } catch {
          // Storage refused or full: the next visit waits for the search, as this one did.
        }
      },
      () => {},
    );
  }

  /** The result line: how many garments, for which words, in which filters. */
  function summary(state: SearchState, found: Omit<GarmentSearch, 'hits'>, count: number): string {
    const filters = Object.values(selectedFilters(state)).flat().join(', ');
    const query = found.searched || state.query;
    if (searchTerm(state.query) === null)
      return count === 0 ? fillMessage(messages.noneFiltered, { filters }) : countMessage(messages.matches, count, { filters });
    if (count === 0) return fillMessage(filters ? messages.noneIn : messages.none, { query, filters });
    return countMessage(filters ? messages.resultsIn : messages.results, count, { query, filters });
  }

  /** With nothing found: words that would find garments, clearing the filters, and the full list. */
  function showHelp(found: Omit<GarmentSearch, 'hits'> | null, state: SearchState): void {
    const stuck = found !== null && hits.count === 0;
    help.hidden = !stuck;
    suggestions.replaceChildren(
      ...(found?.suggestions ?? []).map((words) => {
        const button = element('button', 'search-suggestion', words);
        button.type = 'button';
        button.setAttribute('aria-label', fillMessage(messages.suggestFor, { word: words }));
        button.addEventListener('click', () => {
          input.value = words;
          input.focus();
          void run('asked');
        });
        const item = element('li');
        item.append(button);
        return item;
      }),
    );
    suggestions.previousElementSibling!.toggleAttribute('hidden', suggestions.childElementCount === 0);
    helpClear.hidden = Object.keys(selectedFilters(state)).length === 0;
  }

  function resultItem(view: ResultView): HTMLLIElement {
    const item = element('li', 'search-hit');
    if (view.image) {
      const image = element('img', 'search-hit-image');
      Object.assign(image, { src: view.image.src, alt: '', width: 72, height: 72, loading: 'lazy', decoding: 'async' });
      // A picture that does not load says nothing the title does not: drop it rather than show a broken icon.
      image.addEventListener('error', () => image.remove(), { once: true });
      item.append(image);
    }
    const body = element('div', 'search-hit-body');
    const heading = element('h3', 'search-hit-title');
    const link = element('a', 'search-hit-link');
    link.href = view.href;
    // Isolated: formatting a record's title leaves open cannot reorder what follows it.
    link.append(element('bdi', '', view.title));
    heading.append(link);
    body.append(heading);
    const facts = resultFacts(view, messages);
    if (facts.length > 0) {
      const line = element('ul', 'search-hit-facts');
      line.append(...facts.map((fact) => element('li', '', fact)));
      body.append(line);
    }
    const excerpt = element('p', 'search-hit-excerpt');
    // The one HTML insertion: Pagefind's encoded excerpt, where safeExcerpt leaves `<mark>` as the only element.
    excerpt.innerHTML = view.excerptHtml;
    body.append(excerpt);
    const pages = element('ul', 'search-hit-pages');
    pages.setAttribute('aria-label', messages.projections);
    for (const projection of view.projections) {
      const page = element('a', `projection-badge projection-badge--${projection.code}`);
      page.href = projection.href;
      page.append(messages.projectionLinks[projection.code]);
      if (projection.status) page.append(element('span', 'search-hit-status', ` · ${projection.status}`));
      const entry = element('li');
      entry.append(page);
      pages.append(entry);
    }
    body.append(pages);
    item.append(body);
    return item;
  }

  function renderFilters(state: SearchState): void {
    // A filter opened before its values came stays open.
    const opened = new Set([...filtersBox.querySelectorAll<HTMLDetailsElement>('details[open]')].map((group) => group.dataset.filter));
    const groups = SEARCH_FILTERS.flatMap((key) => {
      const values = new Set([...Object.keys(totals[key] ?? {}), ...(state.filters[key] ?? [])]);
      if (values.size === 0) return [];
      const selected = new Set(state.filters[key] ?? []);
      const group = element('details', 'search-filter');
      group.dataset.filter = key;
      group.open = selected.size > 0 || opened.has(key);
      const fieldset = element('fieldset');
      const legend = element('legend', 'visually-hidden', messages.filters[key]);
      const options = element('ul', 'search-filter-values');
      for (const value of [...values].sort(filterValueOrder(key))) {
        const box = element('input');
        Object.assign(box, { type: 'checkbox', name: key, value, checked: selected.has(value) });
        const label = element('label');
        label.append(box, ' ', element('bdi', '', value), ' ', element('span', 'count'));
        const option = element('li');
        option.append(label);
        options.append(option);
      }
      fieldset.append(legend, options);
      const opener = element('summary', '', messages.filters[key]);
      // Opened by the reader (a click, or Enter or Space on it): the counts are wanted now.
      opener.addEventListener('click', () => loadCounts());
      group.append(opener, fieldset);
      return [group];
    });
    filtersBox.replaceChildren(...groups);
    filtersHeading.hidden = groups.length === 0;
    updateCounts(null);
  }

  /** Loads every filter file, then counts what each value would leave, the garments shown (and "Show more" clicked) left as they are. */
  function loadCounts(): void {
    if (counting) return;
    counting = load().current.then((opened) => opened.filters());
    void counting
      .then(() => {
        counted = true;
        return refreshCounts(searchId);
      })
      .catch(() => {});
  }

  /** Shows the counts for the search shown (number `id`), unless another has started since. */
  async function refreshCounts(id: number): Promise<void> {
    const state = formState();
    if (id !== searchId || !isSearchable(state)) return;
    const found = await searchCurrent(garmentQuery(state, counted));
    if (id === searchId) updateCounts(found.filters);
  }

  /**
   * Shows, beside each value, how many garments it would leave among those the other filters leave
   * (shard-search.ts); with no search, over every garment; not known until the filter files are loaded.
   */
  function updateCounts(counts: FilterCounts | null): void {
    const known = counts ?? (isSearchable(formState()) ? null : totals);
    for (const box of filtersBox.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) {
      const label = box.closest('label')!;
      const count = known ? (known[box.name]?.[box.value] ?? 0) : null;
      label.querySelector('.count')!.textContent = count === null ? '' : `(${count.toLocaleString('en')})`;
      label.classList.toggle('search-filter-empty', count === 0 && !box.checked);
    }
    clearButton.hidden = filtersBox.querySelector('input:checked') === null;
  }

  /** The active filters as buttons that remove them. */
  function renderChips(state: SearchState): void {
    const items = SEARCH_FILTERS.flatMap((key) =>
      (state.filters[key] ?? []).map((value) => {
        const chip = element('button', 'search-chip');
        chip.type = 'button';
        chip.setAttribute('aria-label', fillMessage(messages.removeFilter, { filter: messages.filters[key], value }));
        chip.append(element('bdi', '', value), element('span', 'search-chip-x', '×'));
        chip.addEventListener('click', () => {
          for (const box of filtersBox.querySelectorAll<HTMLInputElement>('input:checked'))
            if (box.name === key && box.value === value) box.checked = false;
          input.focus();
          void run('asked');
        });
        const item = element('li');
        item.append(chip);
        return item;
      }),
    );
    chips.replaceChildren(...items);
    chips.hidden = items.length === 0;
  }

  function formState(): SearchState {
    const params = new URLSearchParams({ q: input.value, sort: sort.value });
    for (const box of filtersBox.querySelectorAll<HTMLInputElement>('input:checked')) params.append(box.name, box.value);
    return parseSearchState(params);
  }

  /** Puts a search in the address: a new history entry for each search asked for, one for a run of typing. */
  function writeUrl(state: SearchState, typing: boolean): void {
    const query = searchQueryString(state);
    // The hash stays: the index page's no-script filters live there.
    const url = `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
    if (url === `${location.pathname}${location.search}${location.hash}`) return;
    const now = performance.now();
    if (typing && typingEntry && now - typedAt < TYPING_RUN_MS) history.replaceState(history.state, '', url);
    else history.pushState(history.state, '', url);
    typingEntry = typing;
    typedAt = now;
  }

  function setStatus(text: string): void {
    if (status.textContent !== text) status.textContent = text;
  }

  submit.addEventListener('click', () => void run('asked'));
  input.addEventListener('input', () => void run('typing'));
  sort.addEventListener('change', () => void run('asked'));
  filtersBox.addEventListener('change', () => void run('asked'));
  const clearFilters = () => {
    // The button hides once nothing is ticked: focus goes back to the words, not to the page.
    input.focus();
    for (const box of filtersBox.querySelectorAll<HTMLInputElement>('input:checked')) box.checked = false;
    void run('asked');
  };
  clearButton.addEventListener('click', clearFilters);
  helpClear.addEventListener('click', clearFilters);
  moreButton.addEventListener('click', async () => {
    const before = list.childElementCount;
    await showMore(searchId);
    list.children[before]?.querySelector('a')?.focus();
  });
  root.addEventListener('focusin', () => void load().current.catch(() => {}), { once: true });
  // A page that is only search shows its filters at once, to browse by before a word is typed.
  if (root.dataset.searchPage !== undefined) void load().current.catch(() => {});

  // Arrow keys move between the box and the hits; Tab still walks through everything.
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void run('asked');
    }
    const first = list.querySelector<HTMLAnchorElement>('a.search-hit-link');
    if (event.key === 'ArrowDown' && first) {
      event.preventDefault();
      first.focus();
    }
  });
  list.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const links = [...list.querySelectorAll<HTMLAnchorElement>('a.search-hit-link')];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (at === -1) return;
    event.preventDefault();
    const next = event.key === 'ArrowDown' ? links[at + 1] : links[at - 1];
    (next ?? (event.key === 'ArrowUp' ? input : links[at]))!.focus();
  });

  window.addEventListener('popstate', () => {
    asked = parseSearchState(new URLSearchParams(location.search));
    input.value = asked.query;
    sort.value = asked.sort ?? '';
    for (const box of filtersBox.querySelectorAll<HTMLInputElement>('input[type="checkbox"]'))
      box.checked = asked.filters[box.name as SearchFilter]?.includes(box.value) ?? false;
    void run('restored');
  });

  if (isSearchable(asked)) void run('restored');
  // The search page says what to do from the start; the home page's box, once reached for.
  else if (root.dataset.searchPage !== undefined) setStatus(messages.prompt);
}

/** Whether a search run again found what its kept result showed: as many garments, the same first ones in the same order, the same words. */
function sameFound(kept: KeptResult, found: GarmentSearch, first: readonly PagefindResultData[]): boolean {
  const { search } = kept;
  return (
    search.count === found.hits.count &&
    search.searched === found.searched &&
    search.corrected === found.corrected &&
    first.length === kept.first.length &&
    first.every((data, at) => data.url === kept.first[at]!.url)
  );
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
