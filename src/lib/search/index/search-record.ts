import { readingOrder } from '../../record/reading-order.ts';
import type { GarmentRecord, Projection } from '../../record/types.ts';
import type { SiteEntry } from '../../site/site-index.ts';
import { plainText } from '../../site/text.ts';
import { garmentPath, pagePath } from '../../site/urls.ts';
import { distinctValues, garmentMeta, searchFields, type SearchMeta } from './search-fields.ts';
import { GARMENT_META, NO_NUMBER, SEARCH_FILTERS, titleSortKey, type SearchSort } from '../query/search-keys.ts';

/**
 * What one record page gives the search index, made where the record is read (a record thread):
 * its reading text, the names a searcher types, and its filters, metadata and sort keys. The
 * index holds one page per garment (garmentRecord), made from its records' search records.
 */
export interface SearchRecord {
  /** The record page's path: `/garments/<slug>/<projection>/`. */
  url: string;
  projection: Projection;
  /** The page's reading text, sentence by sentence, as plain text: the index's text and its excerpts. */
  reading: string[];
  /** The names a searcher types that the reading text does not say (style code, aliases, brand, colours, fibres, …). */
  names: string[];
  /** Result metadata of this projection (search-fields.ts, SearchMeta); every value is plain text. */
  meta: SearchMeta;
  filters: Record<string, string[]>;
  sort: Record<SearchSort, string>;
}

/** What Pagefind is given for one garment (`index.addCustomRecord`): a custom record, not a rendered page. */
export interface GarmentPage {
  /** The garment's path: `/garments/<slug>/`; its projections' pages are in `meta.projections`. */
  url: string;
  /** The reading text of its pages: Pagefind indexes it and takes excerpts from it. */
  content: string;
  language: 'en';
  /** Result metadata (garmentMeta), searchable by Pagefind too: `names` holds the names, searched but never shown as an excerpt. */
  meta: Record<string, string>;
  filters: Record<string, string[]>;
  sort: Record<SearchSort, string>;
}

/**
 * The search record of a record page: the page's reading text (title, headline, summary,
 * description, every section, the selection summary, the FAQ), then the names a searcher types
 * (official name, aliases, style code, brand, manufacturer, category, colours, materials, fibres,
 * decoration methods, sizes) the text does not already say; the data tables, claims and sources are left
 * out, as is the page's chrome. Text stays text: the browser escapes everything in an excerpt but `<mark>`.
 * Its result's key facts come from the entry's card facts (card-facts.ts).
 */
export function searchRecord(entry: SiteEntry, record: GarmentRecord): SearchRecord {
  const { filters, meta, sort } = searchFields(entry, record);
  const reading = readingText(entry, record);
  return {
    url: pagePath(entry.slug, entry.projection),
    projection: entry.projection,
    reading,
    names: unsaidNames(reading, record, filters),
    meta,
    filters,
    sort,
  };
}

/**
 * The page the index holds for a garment, from its records' search records (commerce first): the
 * reading text of each, a sentence said by both said once; the names, filters (each value once) and
 * metadata of both; the title's sort key, the latest publication, the lowest price and weight.
 */
export function garmentPage(records: readonly SearchRecord[]): GarmentPage {
  const ordered = [...records].sort((a, b) => (a.projection < b.projection ? -1 : 1));
  const first = ordered[0]!;
  const sentences = [...new Set(ordered.flatMap((page) => page.reading))];
  const said = sentences.join(' ').toLocaleLowerCase('en');
  const names = distinctValues(ordered.flatMap((page) => page.names)).filter((name) => !saysWords(said, name.toLocaleLowerCase('en')));
  const latest = (key: SearchSort) =>
    ordered
      .map((page) => page.sort[key])
      .sort()
      .at(-1)!;
  const lowest = (key: SearchSort) => ordered.map((page) => page.sort[key]).sort()[0]!;
  const sort = { title: first.sort.title, published: latest('published'), price: lowest('price'), weight: lowest('weight') };
  const filters: Record<string, string[]> = {};
  for (const key of SEARCH_FILTERS) {
    const values = distinctValues(ordered.flatMap((page) => page.filters[key] ?? []));
    if (values.length > 0) filters[key] = values;
  }
  return {
    url: garmentPath(first.url.split('/')[2]!),
    content: sentences.join(' '),
    language: 'en',
    meta: garmentMeta(ordered, names, sort),
    filters,
    sort,
  };
}

/** What an index already holds of a garment: its page as it was given (less the sort keys, which Pagefind keeps apart). */
export type IndexedPage = Omit<GarmentPage, 'url' | 'language' | 'sort'>;

/**
 * The page of a garment whose records have not changed since it was last indexed: its text,
 * metadata and filters as that index holds them (they come from the records alone), its sort keys
 * from its metadata, as garmentPage makes them.
 */
export function reindexedPage(url: string, page: IndexedPage): GarmentPage {
  const { content, meta, filters } = page;
  return {
    url,
    content,
    language: 'en',
    meta,
    filters,
    sort: {
      title: titleSortKey(meta.title ?? ''),
      published: meta[GARMENT_META.published] ?? '',
      price: meta[GARMENT_META.price] ?? NO_NUMBER,
      weight: meta[GARMENT_META.weight] ?? NO_NUMBER,
    },
  };
}

/** Pagefind reads a word starting `___PAGEFIND_` (or `___END_PAGEFIND_`) in content as an instruction; record text gives none. */
const PAGEFIND_SENTINEL = /(^|\s)_+(?=(?:END_)?PAGEFIND_)/g;

/**
 * The reading text of a record page, sentence by sentence, its blocks in reading order (readingOrder)
 * with the selection summary's limitations after its lists and each question before its answer:
 * every piece ends as a sentence so excerpts read as text; empty and repeated pieces dropped.
 */
function readingText(entry: SiteEntry, record: GarmentRecord): string[] {
  const blocks = readingOrder(record).filter(({ part }) => part !== 'title');
  const pieces = [
    entry.title,
    ...blocks.filter(({ part }) => part !== 'faq').map(({ block }) => plainText(block.text)),
    record.selection_summary.limitations,
    ...blocks
      .filter(({ part }) => part === 'faq')
      .flatMap(({ block, position }) => [record.page.faq[position]!.question, plainText(block.text)]),
  ];
  return [...new Set(pieces.map(sentence).filter((text) => text !== ''))];
}

/** The names a searcher types that the reading text does not already say: a name it says adds nothing to find. */
function unsaidNames(reading: readonly string[], record: GarmentRecord, filters: Partial<Record<string, string[]>>): string[] {
  const { identity } = record.data;
  const said = reading.join(' ').toLocaleLowerCase('en');
  return distinctValues(
    [
      identity.official_name,
      ...(identity.aliases ?? []),
      identity.style_code,
      record.catalog?.title,
      ...(filters.brand ?? []),
      ...(filters.manufacturer ?? []),
      ...(filters.category ?? []),
      identity.subcategory,
      ...(filters.color ?? []),
      ...record.data.material_profiles.map((m) => m.name),
      ...(filters.fiber ?? []),
      ...(filters.fabric ?? []),
      ...(filters.construction ?? []),
      ...(filters.decoration ?? []),
      // Sizes as the size filter spells them, so a size searched for finds what the filter finds.
      ...(filters.size ?? []),
    ].map((name) => (name ?? '').replace(PAGEFIND_SENTINEL, '$1')),
  ).filter((name) => !saysWords(said, name.toLocaleLowerCase('en')));
}

/** A piece of text as one sentence of the index: whitespace collapsed, Pagefind's instructions defused, ending in a stop. */
function sentence(raw: string | null | undefined): string {
  const text = (raw ?? '').replace(/\s+/g, ' ').replace(PAGEFIND_SENTINEL, '$1').trim();
  return text === '' || /[.!?:;…]$/.test(text) ? text : `${text}.`;
}

/**
 * Whether `text` holds `phrase` as whole words as Pagefind reads them (split at whitespace only,
 * punctuation dropped: `XS–2XL` is one word, `xs2xl`); both already lower-cased.
 * @example saysWords('navy, black.', 'black') → true; saysWords('blackish', 'black') → false; saysWords('xs–2xl', '2xl') → false
 */
function saysWords(text: string, phrase: string): boolean {
  for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) {
    if (wordEdge(text, at - 1, -1) && wordEdge(text, at + phrase.length, 1)) return true;
  }
  return false;
}

/** Whether the characters from `at` on (in the direction `step`) reach whitespace or the end before a letter or digit: nothing joins the word there. */
function wordEdge(text: string, at: number, step: 1 | -1): boolean {
  for (let i = at; i >= 0 && i < text.length; i += step) {
    if (/\s/.test(text[i]!)) return true;
    if (WORD_CHAR.test(text[i]!)) return false;
  }
  return true;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
