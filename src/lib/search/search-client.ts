// The search box in the browser: Pagefind's API behind plain fields. The fields are the search
// state, mirrored in the query string (`?q=fleece&projection=Technical&sort=title`).
import type { FilterCounts, PagefindApi } from './pagefind-api.ts';
import { filterValueOrder, resultView, type ResultView } from './result-view.ts';
import { SEARCH_FILTERS, type SearchFilter } from './search-keys.ts';
import { countMessage, fillMessage, type SearchMessages } from './search-messages.ts';
import { SHARD_LIST_PATH, type ShardList } from './search-shards.ts';
import { isSearchable, parseSearchState, searchQueryString, searchTerm, selectedFilters, SORT_ORDERS, type SearchState } from './search-state.ts';
import { mergeFilterCounts, NO_HITS, openShards, searchShards, type ShardInstance } from './shard-search.ts';

/** Hits whose data is loaded at once; more on request. */
const PAGE_SIZE = 20;
/** Pause after a keystroke before searching. */
const TYPING_DELAY_MS = 200;
/** Words typed within this long of the last keep one history entry; after a longer pause, the search shown is kept and new words make an entry of their own. */
const TYPING_RUN_MS = 1500;

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

  let pagefind: Promise<ShardInstance[]> | null = null;
  let totals: FilterCounts = {};
  let hits = NO_HITS;
  let shown = 0;
  let searchId = 0;

  // The search the address asks for; Back and Forward change it.
  let asked = parseSearchState(new URLSearchParams(location.search));
  input.value = asked.query;
  sort.value = asked.sort ?? '';
  // Whether the current history entry was made for words being typed, and when they last changed: words
  // typed soon after replace them in it, words typed after a pause (or after Enter) make an entry of their own.
  let typingEntry = false;
  let typedAt = 0;

  // The index is split into shards (search-shards.ts): one Pagefind instance each, searched together.
  const load = () =>
    (pagefind ??= (async () => {
      const response = await fetch(SHARD_LIST_PATH);
      if (!response.ok) throw new Error(`${SHARD_LIST_PATH}: HTTP ${response.status}`);
      const { shards } = (await response.json()) as ShardList;
      // A site without records has no shard: every search finds nothing.
      const api = shards[0] ? ((await import(/* @vite-ignore */ `${shards[0]}pagefind.js`)) as PagefindApi) : null;
      const loaded = api ? await openShards(api, shards) : [];
      totals = mergeFilterCounts(loaded.map((shard) => shard.totals));
      renderFilters(asked);
      return loaded;
    })());

  /** Searches for what the form says: while typing, after a request (Enter, a filter, the sort), or for an address Back or Forward restored. */
  async function run(mode: 'typing' | 'asked' | 'restored'): Promise<void> {
    const typing = mode === 'typing';
    const id = ++searchId;
    let shards: ShardInstance[];
    try {
      shards = await load();
    } catch (error) {
      setStatus(fillMessage(messages.unavailable, { message: (error as Error).message }));
      return;
    }
    if (id !== searchId) return;
    // Read after loading: the filter boxes exist only once Pagefind has listed the filters.
    const state = formState();
    if (mode !== 'restored') writeUrl(state, typing);
    if (!typing) typingEntry = false;
    if (!isSearchable(state)) {
      hits = NO_HITS;
      list.replaceChildren();
      moreButton.hidden = true;
      updateCounts(totals);
      setStatus(messages.prompt);
      return;
    }
    setStatus(messages.loading);
    if (typing) await new Promise((resolve) => setTimeout(resolve, TYPING_DELAY_MS));
    if (id !== searchId) return;
    const sortOrder = state.sort ? { key: state.sort, direction: SORT_ORDERS[state.sort] } : null;
    const search = await searchShards(shards, searchTerm(state.query), selectedFilters(state), sortOrder);
    if (id !== searchId) return;
    updateCounts(search.filters);
    hits = search.hits;
    shown = 0;
    list.replaceChildren();
    await showMore(id);
    if (id !== searchId) return;
    setStatus(summary(state, hits.count));
  }

  async function showMore(id: number): Promise<HTMLAnchorElement | null> {
    const data = await hits.next(PAGE_SIZE);
    if (id !== searchId) return null;
    shown += data.length;
    const items = data.map(resultView).filter((view): view is ResultView => view !== null).map(resultItem);
    list.append(...items);
    moreButton.hidden = shown >= hits.count;
    return items[0]?.querySelector('a') ?? null;
  }

  function summary(state: SearchState, count: number): string {
    if (searchTerm(state.query) === null) return count === 0 ? messages.noneFiltered : countMessage(messages.matches, count);
    return count === 0 ? fillMessage(messages.none, { query: state.query }) : countMessage(messages.results, count, { query: state.query });
  }

  function resultItem(view: ResultView): HTMLLIElement {
    const item = element('li', 'search-hit');
    if (view.image) {
      const image = element('img', 'search-hit-image');
      Object.assign(image, { src: view.image.src, alt: '', width: 64, height: 64, loading: 'lazy', decoding: 'async' });
      // A picture that does not load says nothing the title does not: drop it rather than show a broken icon.
      image.addEventListener('error', () => image.remove(), { once: true });
      item.append(image);
    }
    const body = element('div', 'search-hit-body');
    const link = element('a', 'search-hit-link');
    link.href = view.href;
    // Isolated: formatting a record's title leaves open cannot reorder what follows it.
    link.append(element('bdi', '', view.title), element('span', 'visually-hidden', ` (${view.projection})`));
    const meta = element('p', 'search-hit-meta');
    // The link's name already carries the projection; the badge repeats it for the eye.
    const badge = element('span', `projection-badge projection-badge--${view.projectionCode === 'tech' ? 'tech' : 'svc'}`, view.projection);
    badge.setAttribute('aria-hidden', 'true');
    meta.append(badge);
    if (view.status) meta.append(element('span', 'visually-hidden', `${messages.status}: `), view.status);
    const excerpt = element('p', 'search-hit-excerpt');
    // The one HTML insertion: Pagefind's encoded excerpt, where safeExcerpt leaves `<mark>` as the only element.
    excerpt.innerHTML = view.excerptHtml;
    body.append(link, meta, excerpt);
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
      group.append(element('summary', '', messages.filters[key]), fieldset);
      return [group];
    });
    filtersBox.replaceChildren(...groups);
    filtersHeading.hidden = groups.length === 0;
    updateCounts(totals);
  }

  /** Shows, beside each value, how many pages carry it among those the other filters leave (shard-search.ts). */
  function updateCounts(counts: FilterCounts): void {
    for (const box of filtersBox.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) {
      const count = counts[box.name]?.[box.value] ?? 0;
      const label = box.closest('label')!;
      label.querySelector('.count')!.textContent = `(${count})`;
      label.classList.toggle('search-filter-empty', count === 0 && !box.checked);
    }
    clearButton.hidden = filtersBox.querySelector('input:checked') === null;
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
  clearButton.addEventListener('click', () => {
    // The button hides once nothing is ticked: focus goes back to the words, not to the page.
    input.focus();
    for (const box of filtersBox.querySelectorAll<HTMLInputElement>('input:checked')) box.checked = false;
    void run('asked');
  });
  moreButton.addEventListener('click', async () => {
    (await showMore(searchId))?.focus();
  });
  root.addEventListener('focusin', () => void load().catch(() => {}), { once: true });
  // A page that is only search shows its filters at once, to browse by before a word is typed.
  if (root.dataset.searchPage !== undefined) void load().catch(() => {});

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
    for (const box of filtersBox.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) box.checked = asked.filters[box.name as SearchFilter]?.includes(box.value) ?? false;
    void run('restored');
  });

  if (isSearchable(asked)) void run('restored');
  // The search page says what to do from the start; the home page's box, once reached for.
  else if (root.dataset.searchPage !== undefined) setStatus(messages.prompt);
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className = '', text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
