import type { GarmentRecord, TextBlock } from '../record/types.ts';
import type { SiteEntry } from '../site/site-index.ts';
import { SECTION_ORDER } from '../site/strings.ts';
import { plainText } from '../site/text.ts';
import { pagePath } from '../site/urls.ts';
import { distinctValues, searchFields, searchMeta, searchSort, type SearchMeta } from './search-fields.ts';

/**
 * What the search index holds for one record page: Pagefind's custom record
 * (`index.addCustomRecord`), built from the record itself rather than its rendered HTML.
 */
export interface SearchRecord {
  /** The page's path on the site, as Pagefind returns it to the browser: `/garments/<slug>/<projection>/`. */
  url: string;
  /** The text a searcher looks for, as plain text: Pagefind indexes it and takes excerpts from it. */
  content: string;
  language: 'en';
  /** Result metadata: title, projection, status and an http(s) image when there is one. */
  meta: Record<string, string>;
  filters: Record<string, string[]>;
  sort: Record<string, string>;
}

/**
 * The search record of a record page. Its content is the page's reading text (title, headline,
 * summary, description, every section, the selection summary, the FAQ) followed by the names a
 * searcher types (official name, aliases, style code, brand, manufacturer, category, colours,
 * materials, fibres, decoration methods) the text does not already say; the data tables, claims and sources are left out, as
 * is the page's chrome. Text stays text: the browser escapes everything in an excerpt but `<mark>`.
 */
export function searchRecord(entry: SiteEntry, record: GarmentRecord): SearchRecord {
  const { filters, meta, sort } = searchFields(entry, record);
  return {
    url: pagePath(entry.slug, entry.projection),
    content: searchContent(entry, record, filters),
    language: 'en',
    meta: presentFields(meta),
    filters,
    sort,
  };
}

/** What an index already holds of a page: the text and filters its record gave when it was indexed. */
export interface IndexedPage {
  content: string;
  filters: Record<string, string[]>;
}

/**
 * The search record of a page whose record has not changed since it was last indexed: its text and
 * filters as that index holds them (they come from the record alone), its metadata and sort keys
 * from the entry, as searchRecord makes them.
 */
export function reindexedRecord(entry: SiteEntry, page: IndexedPage): SearchRecord {
  return {
    url: pagePath(entry.slug, entry.projection),
    content: page.content,
    language: 'en',
    meta: presentFields(searchMeta(entry)),
    filters: page.filters,
    sort: searchSort(entry),
  };
}

function presentFields(meta: SearchMeta): Record<string, string> {
  return Object.fromEntries(Object.entries(meta).filter((field): field is [string, string] => field[1] !== undefined));
}

/** Pagefind reads a word starting `___PAGEFIND_` (or `___END_PAGEFIND_`) in content as an instruction; record text gives none. */
const PAGEFIND_SENTINEL = /(^|\s)_+(?=(?:END_)?PAGEFIND_)/g;

/** Ends every piece as a sentence so excerpts read as text, and drops empty and repeated pieces. */
function searchContent(entry: SiteEntry, record: GarmentRecord, filters: Partial<Record<string, string[]>>): string {
  const { page, selection_summary: selection } = record;
  const blocks = (list: readonly (TextBlock | null | undefined)[]) => list.map((block) => (block ? plainText(block.text) : null));
  const sections = page.sections as unknown as Record<string, TextBlock[] | undefined>;
  const { identity } = record.data;
  const materials = record.data.material_profiles;

  const reading = [
    entry.title,
    ...blocks([page.headline, page.summary, page.description]),
    ...SECTION_ORDER[record.projection].flatMap((key) => blocks(sections[key] ?? [])),
    ...blocks([...selection.suitable_for, ...selection.tradeoffs]),
    selection.limitations,
    ...page.faq.flatMap((entry) => [entry.question, ...blocks([entry.answer])]),
  ];
  const names = distinctValues([
    identity.official_name,
    ...(identity.aliases ?? []),
    identity.style_code,
    record.catalog?.title,
    ...(filters.brand ?? []),
    ...(filters.manufacturer ?? []),
    ...(filters.category ?? []),
    identity.subcategory,
    ...(filters.colour ?? []),
    ...materials.map((m) => m.name),
    ...(filters.fibre ?? []),
    ...(filters.fabric ?? []),
    ...(filters.construction ?? []),
    ...(filters.decoration ?? []),
  ]);

  const seen = new Set<string>();
  const sentences: string[] = [];
  const add = (raw: string | null | undefined) => {
    const text = (raw ?? '').replace(/\s+/g, ' ').replace(PAGEFIND_SENTINEL, '$1').trim();
    if (text === '' || seen.has(text)) return;
    seen.add(text);
    sentences.push(/[.!?:;…]$/.test(text) ? text : `${text}.`);
  };
  reading.forEach(add);
  // A name the text already says adds nothing to find, and a list of repeats would draw the excerpt.
  const said = sentences.join(' ').toLocaleLowerCase('en');
  for (const name of names) if (!saysWords(said, name.toLocaleLowerCase('en'))) add(name);
  return sentences.join(' ');
}

/**
 * Whether `text` holds `phrase` as whole words; both already lower-cased.
 * @example saysWords('navy, black.', 'black') → true; saysWords('blackish', 'black') → false
 */
function saysWords(text: string, phrase: string): boolean {
  for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) {
    if (!WORD_CHAR.test(text[at - 1] ?? ' ') && !WORD_CHAR.test(text[at + phrase.length] ?? ' ')) return true;
  }
  return false;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
