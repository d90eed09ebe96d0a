// The compare page's script (src/pages/compare/index.astro): reads the garments from the address
// (`?g=<slug>` each; `?add=<slug>` adds one to those last compared), fetches their JSON twins and
// draws them side by side. Records are untrusted: every text goes in through textContent.
import { closeBidiThroughout } from '../bidi-closed.ts';
import {
  type ComparedGarment,
  comparedGarment,
  comparedSlugs,
  comparePath,
  comparisonRows,
  type ComparisonWords,
  type GarmentTwins,
  MOST_COMPARED,
} from '../comparison.ts';
import { element } from './element.ts';

/** The words the page's script shows, from strings.ts: the table's labels and its messages. */
export interface CompareMessages extends ComparisonWords {
  garment: string;
  /** The name of the table's scrolling box. */
  table: string;
  remove: string;
  clear: string;
  loading: string;
  /** `{slugs}` is filled with the slugs named. */
  missing: string;
  repeated: string;
  invalid: string;
  beyond: string;
  addMore: string;
}

/** Where the garments last compared are kept, so a garment page's "Compare" link adds to them. */
const REMEMBERED = 'garment-press.compare';

function remembered(): string[] {
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(REMEMBERED) ?? '[]');
    return Array.isArray(kept) ? kept.filter((slug): slug is string => typeof slug === 'string') : [];
  } catch {
    return [];
  }
}

function remember(slugs: string[]): void {
  try {
    localStorage.setItem(REMEMBERED, JSON.stringify(slugs));
  } catch {
    // Storage may be refused (private mode): the address still holds the comparison.
  }
}

/**
 * A record twin as parsed JSON, its texts' bidirectional formatting closed as on its pages, or null
 * when the garment has no record of that projection.
 */
async function twin(slug: string, projection: 'svc' | 'tech'): Promise<unknown> {
  const response = await fetch(`/garments/${encodeURIComponent(slug)}/${projection}.json`, { credentials: 'same-origin' });
  if (!response.ok) return null;
  try {
    const record: unknown = await response.json();
    if (typeof record === 'object' && record !== null) closeBidiThroughout(record);
    return record;
  } catch {
    return null;
  }
}

async function twinsOf(slug: string): Promise<GarmentTwins> {
  const [svc, tech] = await Promise.all([twin(slug, 'svc'), twin(slug, 'tech')]);
  return { slug, svc, tech };
}

function link(href: string, text: string): HTMLAnchorElement {
  const made = element('a', '', text);
  made.href = href;
  return made;
}

/** A message naming slugs, each as text. */
const naming = (template: string, slugs: string[]) => template.replace('{slugs}', slugs.join(', '));

/** The comparison as a table: a column per garment (its name, its pages, a link that removes it), a row per fact. */
function comparisonTable(garments: ComparedGarment[], messages: CompareMessages): HTMLElement {
  const slugs = garments.map((garment) => garment.slug);
  const table = element('table', 'compare-table');
  // How many garments' columns a phone lays out side by side (global.css).
  table.dataset.compared = String(garments.length);
  const head = element('thead');
  const headRow = element('tr');
  headRow.append(element('th', '', messages.garment));
  headRow.firstElementChild!.setAttribute('scope', 'col');
  for (const garment of garments) {
    const cell = element('th');
    cell.scope = 'col';
    const name = element('p', 'compare-name');
    name.append(link(garment.href, garment.title));
    const pages = element('p', 'compare-pages');
    garment.pages.forEach((page, i) => pages.append(...(i > 0 ? [' · '] : []), link(page.href, page.label)));
    const remove = link(comparePath(slugs.filter((slug) => slug !== garment.slug)), messages.remove);
    remove.className = 'compare-remove';
    remove.setAttribute('aria-label', `${messages.remove}: ${garment.title}`);
    cell.append(name, pages, remove);
    headRow.append(cell);
  }
  head.append(headRow);
  const body = element('tbody');
  for (const row of comparisonRows(garments, messages)) {
    const line = element('tr');
    line.dataset.row = row.key;
    const label = element('th', '', row.label);
    label.scope = 'row';
    line.append(label);
    for (const lines of row.cells) {
      const cell = element('td');
      if (lines.length === 0) cell.append(element('span', 'not-stated', '–'));
      for (const text of lines) cell.append(element('span', 'compare-line', text));
      line.append(cell);
    }
    body.append(line);
  }
  table.append(head, body);
  const scroller = element('div', 'table-scroll');
  scroller.tabIndex = 0;
  scroller.setAttribute('role', 'region');
  scroller.setAttribute('aria-label', messages.table);
  scroller.append(table);
  return scroller;
}

/** Brings the compare page to life: `root` holds the messages (data-messages) and the place for the comparison. */
export async function mountComparison(root: HTMLElement): Promise<void> {
  const messages = JSON.parse(root.dataset.messages ?? '{}') as CompareMessages;
  const params = new URLSearchParams(location.search);
  const adding = params.getAll('add');
  // Adding to a full comparison leaves out the garments compared longest ago, never the one just asked for.
  const kept = remembered().filter((slug) => !adding.includes(slug));
  const asked = adding.length > 0 ? [...kept.slice(Math.max(0, kept.length - (MOST_COMPARED - 1))), ...adding] : params.getAll('g');
  const choice = comparedSlugs(asked);
  const shown = root.querySelector<HTMLElement>('[data-compare-result]')!;
  const status = root.querySelector<HTMLElement>('[data-compare-status]')!;
  if (choice.slugs.length > 0 || adding.length > 0) history.replaceState(null, '', comparePath(choice.slugs));
  remember(choice.slugs);
  root.querySelector<HTMLElement>('[data-compare-static]')?.setAttribute('hidden', '');
  root.querySelector<HTMLElement>('[data-compare-how]')?.removeAttribute('hidden');
  if (choice.slugs.length === 0) return;

  status.textContent = messages.loading;
  const garments = await Promise.all(choice.slugs.map(twinsOf));
  const found = garments.filter((twins) => twins.svc !== null || twins.tech !== null).map((twins) => comparedGarment(twins, messages));
  const missing = garments.filter((twins) => twins.svc === null && twins.tech === null).map((twins) => twins.slug);
  const notes = [
    missing.length > 0 && naming(messages.missing, missing),
    choice.repeated.length > 0 && naming(messages.repeated, choice.repeated),
    choice.invalid.length > 0 && naming(messages.invalid, choice.invalid),
    choice.beyond.length > 0 && naming(messages.beyond, choice.beyond),
    found.length < 2 && messages.addMore,
  ].filter((note): note is string => typeof note === 'string');
  const list = element('ul', 'compare-notes');
  for (const note of notes) list.append(element('li', '', note));
  status.textContent = '';
  shown.replaceChildren(...(notes.length > 0 ? [list] : []), ...(found.length > 0 ? [comparisonTable(found, messages)] : []));
  if (found.length > 0) {
    const clear = link('/compare/', messages.clear);
    clear.className = 'compare-clear';
    clear.addEventListener('click', () => remember([]));
    shown.append(element('p', 'compare-actions'));
    shown.lastElementChild!.append(clear);
  }
}
