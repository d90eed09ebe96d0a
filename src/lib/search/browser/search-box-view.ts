// The search box on the page: reads its fields as a search, and shows what search-box-state.ts
// says (the status, the filters and their counts, chips, the help, the garments found).
import type { FilterCounts, PagefindResultData } from '../query/pagefind-api.ts';
import { resultFacts, resultView, type ResultView } from '../query/result-view.ts';
import type { SearchFilter } from '../query/search-keys.ts';
import { fillMessage, type SearchMessages } from '../query/search-messages.ts';
import { parseSearchState, type SearchState } from '../query/search-state.ts';
import type { FilterChip, FilterGroup, SearchBoxState } from './search-box-state.ts';
import { element } from '../../site/browser/element.ts';

/** What the reader does in the box. */
export interface SearchBoxEvents {
  /** Words typed. */
  typed: () => void;
  /** A search asked for: Enter, the button, a filter ticked or removed, the sort changed, a suggestion taken. */
  asked: () => void;
  /** A filter opened by the reader: its counts are wanted now. */
  filterOpened: () => void;
  /** "Show more" pressed. */
  more: () => Promise<void>;
  /** The reader reached for the box. */
  reached: () => void;
}

export interface SearchBoxView {
  messages: SearchMessages;
  /** The search the fields say. */
  form: () => SearchState;
  /** Puts a search in the fields. */
  fill: (form: SearchState) => void;
  /** Shows the status, the note, the help, "Show more" and the filter counts of a state. */
  show: (box: SearchBoxState, counts: FilterCounts | null) => void;
  showFilters: (groups: FilterGroup[]) => void;
  showChips: (chips: FilterChip[]) => void;
  /** Replaces the garments listed. */
  list: (garments: readonly PagefindResultData[]) => void;
  /** Adds a garment to the list. */
  add: (garment: PagefindResultData) => void;
  /** Whether a filter is shown open. */
  filterOpen: () => boolean;
  /** Whether the page is only search (its filters shown at once, to browse by before a word is typed). */
  searchPage: boolean;
}

/** The view of a rendered SearchBox, its events sent to `on`. */
export function searchBoxView(root: HTMLElement, on: SearchBoxEvents): SearchBoxView {
  const part = <E extends HTMLElement>(name: string) => root.querySelector<E>(`[data-search-${name}]`)!;
  const input = root.querySelector<HTMLInputElement>('input[name="q"]')!;
  const sort = root.querySelector<HTMLSelectElement>('select[name="sort"]')!;
  const filtersBox = part('filters');
  const results = part<HTMLOListElement>('results');
  const moreButton = part<HTMLButtonElement>('more');
  const clearButton = part<HTMLButtonElement>('clear');
  const chips = part<HTMLUListElement>('chips');
  const messages = JSON.parse(root.dataset.messages!) as SearchMessages;
  const boxes = () => filtersBox.querySelectorAll<HTMLInputElement>('input[type="checkbox"]');
  const ask = () => {
    input.focus();
    on.asked();
  };
  const clearFilters = () => {
    // The button hides once nothing is ticked: focus goes back to the words, not to the page.
    for (const box of boxes()) box.checked = false;
    ask();
  };

  part('submit').addEventListener('click', on.asked);
  input.addEventListener('input', on.typed);
  sort.addEventListener('change', on.asked);
  filtersBox.addEventListener('change', on.asked);
  clearButton.addEventListener('click', clearFilters);
  part('help-clear').addEventListener('click', clearFilters);
  moreButton.addEventListener('click', async () => {
    const before = results.childElementCount;
    await on.more();
    results.children[before]?.querySelector('a')?.focus();
  });
  root.addEventListener('focusin', on.reached, { once: true });
  bindArrowKeys(input, results, on.asked);

  const suggestions = part<HTMLUListElement>('suggestions');
  let suggested = '[]';
  const suggestion = (words: string) => {
    const button = element('button', 'search-suggestion', words);
    button.type = 'button';
    button.setAttribute('aria-label', fillMessage(messages.suggestFor, { word: words }));
    button.addEventListener('click', () => {
      input.value = words;
      ask();
    });
    return listItem(button);
  };
  const chip = ({ filter, value, label }: FilterChip) => {
    const button = element('button', 'search-chip');
    button.type = 'button';
    button.setAttribute('aria-label', label);
    button.append(element('bdi', '', value), element('span', 'search-chip-x', '×'));
    button.addEventListener('click', () => {
      for (const box of boxes()) if (box.checked && box.name === filter && box.value === value) box.checked = false;
      ask();
    });
    return listItem(button);
  };

  return {
    messages,
    searchPage: root.dataset.searchPage !== undefined,
    form() {
      const params = new URLSearchParams({ q: input.value, sort: sort.value });
      for (const box of boxes()) if (box.checked) params.append(box.name, box.value);
      return parseSearchState(params);
    },
    fill(form) {
      input.value = form.query;
      sort.value = form.sort ?? '';
      for (const box of boxes()) box.checked = form.filters[box.name as SearchFilter]?.includes(box.value) ?? false;
    },
    show(box, counts) {
      const status = part('status');
      if (status.textContent !== box.status) status.textContent = box.status;
      part('note').textContent = box.note;
      part('help').hidden = !box.help.shown;
      // Made again only when they change: a suggestion the reader is on keeps its focus.
      if (JSON.stringify(box.help.suggestions) !== suggested) suggestions.replaceChildren(...box.help.suggestions.map(suggestion));
      suggested = JSON.stringify(box.help.suggestions);
      suggestions.previousElementSibling!.toggleAttribute('hidden', suggestions.childElementCount === 0);
      part('help-clear').hidden = !box.help.clearFilters;
      moreButton.hidden = !box.more;
      showCounts(boxes(), counts);
      clearButton.hidden = filtersBox.querySelector('input:checked') === null;
    },
    showFilters(groups) {
      // A filter opened before its values came stays open.
      const opened = new Set([...filtersBox.querySelectorAll<HTMLDetailsElement>('details[open]')].map((group) => group.dataset.filter));
      filtersBox.replaceChildren(...groups.map((group) => filterGroup(group, opened.has(group.key), on.filterOpened)));
      part('filters-heading').hidden = groups.length === 0;
    },
    showChips(items) {
      chips.replaceChildren(...items.map(chip));
      chips.hidden = items.length === 0;
    },
    list(garments) {
      results.replaceChildren(
        ...garments.flatMap((data) => {
          const view = resultView(data);
          return view ? [resultItem(view, messages)] : [];
        }),
      );
    },
    add(garment) {
      const view = resultView(garment);
      if (view) results.append(resultItem(view, messages));
    },
    filterOpen: () => filtersBox.querySelector('details[open]') !== null,
  };
}

/** Enter searches; arrow keys move between the box and the hits; Tab still walks through everything. */
function bindArrowKeys(input: HTMLInputElement, results: HTMLOListElement, asked: () => void): void {
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      asked();
    }
    const first = results.querySelector<HTMLAnchorElement>('a.search-hit-link');
    if (event.key === 'ArrowDown' && first) {
      event.preventDefault();
      first.focus();
    }
  });
  results.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const links = [...results.querySelectorAll<HTMLAnchorElement>('a.search-hit-link')];
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (at === -1) return;
    event.preventDefault();
    const next = event.key === 'ArrowDown' ? links[at + 1] : links[at - 1];
    (next ?? (event.key === 'ArrowUp' ? input : links[at]))!.focus();
  });
}

/**
 * Shows, beside each value, how many garments it would leave among those the other filters leave
 * (shard-search.ts); blank when not known.
 */
function showCounts(boxes: Iterable<HTMLInputElement>, counts: FilterCounts | null): void {
  for (const box of boxes) {
    const label = box.closest('label')!;
    const count = counts ? (counts[box.name]?.[box.value] ?? 0) : null;
    label.querySelector('.count')!.textContent = count === null ? '' : `(${count.toLocaleString('en')})`;
    label.classList.toggle('search-filter-empty', count === 0 && !box.checked);
  }
}

function filterGroup({ key, label, values, open }: FilterGroup, opened: boolean, filterOpened: () => void): HTMLDetailsElement {
  const group = element('details', 'search-filter');
  group.dataset.filter = key;
  group.open = open || opened;
  const fieldset = element('fieldset');
  const options = element('ul', 'search-filter-values');
  for (const { value, checked } of values) {
    const box = element('input');
    Object.assign(box, { type: 'checkbox', name: key, value, checked });
    const item = element('label');
    item.append(box, ' ', element('bdi', '', value), ' ', element('span', 'count'));
    options.append(listItem(item));
  }
  fieldset.append(element('legend', 'visually-hidden', label), options);
  const opener = element('summary', '', label);
  // Opened by the reader (a click, or Enter or Space on it): the counts are wanted now.
  opener.addEventListener('click', filterOpened);
  group.append(opener, fieldset);
  return group;
}

function resultItem(view: ResultView, messages: SearchMessages): HTMLLIElement {
  const item = element('li', 'search-hit');
  if (view.image) {
    // A picture that fails becomes a placeholder naming the garment, as a card's does (the page's /scripts/images.js).
    const image = element('img', 'garment-image search-hit-image');
    Object.assign(image, { src: view.image.src, alt: '', width: 72, height: 72, loading: 'lazy', decoding: 'async' });
    image.dataset.placeholder = view.title;
    item.append(image);
  }
  const body = element('div', 'search-hit-body');
  // Under the page's h1 (or the box's own h2): a level below either, so no level is skipped.
  const heading = element('h2', 'search-hit-title');
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
    pages.append(listItem(page));
  }
  body.append(pages);
  item.append(body);
  return item;
}

function listItem(child: HTMLElement): HTMLLIElement {
  const item = element('li');
  item.append(child);
  return item;
}
