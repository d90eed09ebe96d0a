import type { GarmentRecord, Projection } from '../../record/types.ts';
import { enumLabel, researchStatusLabel } from '../../site/format.ts';
import { isoDate } from '../../record/timestamp.ts';
import type { SiteEntry } from '../../site/site-index.ts';
import { projectionLabel } from '../../site/strings.ts';
import {
  FILTER_READERS,
  GARMENT_META,
  NO_NUMBER,
  numberSortKey,
  SEARCH_FILTERS,
  titleSortKey,
  type SearchFilter,
  type SearchSort,
} from '../query/search-keys.ts';

/** What one record page adds to its garment's search result; every value is plain text. */
export interface SearchMeta {
  title: string;
  /** The research status, in words. */
  status: string;
  /** An http(s) image; absent when the record has none. */
  image?: string;
  image_alt?: string;
  /** The lowest price, formatted (`$18.40`): commerce pages. */
  price?: string;
  /** The sizes, shortened past four (`XS–3XL`). */
  sizes?: string;
  /** The main fabric: construction and fibres (`Fleece, 80% cotton, 20% polyester`): technical pages. */
  fabric?: string;
  /** The main fabric's weight, in the units given (`9.5 oz/yd², 322 g/m²`). */
  weight?: string;
}

/** What the search index holds about a record page besides its text: filter values, result metadata and sort keys. */
export interface SearchFields {
  /** Values per filter, deduplicated, in record order; filters without a value are left out. */
  filters: Partial<Record<SearchFilter, string[]>>;
  meta: SearchMeta;
  sort: Record<SearchSort, string>;
}

/** Longest filter value kept whole: a value is a facet label, not a paragraph. */
const MAX_FILTER_VALUE = 80;

/**
 * The search fields of a record page: its filter values, read from the record by each filter's reader
 * (search-keys.ts), codes in words; its result metadata and sort keys from its site entry and record.
 * searchRecord adds them to the page's text.
 */
export function searchFields(entry: SiteEntry, record: GarmentRecord): SearchFields {
  const filters: SearchFields['filters'] = {};
  for (const key of SEARCH_FILTERS) {
    const { values, words } = FILTER_READERS[key];
    const distinct = distinctValues(values(record).map((value) => (words && value ? inWords(words, value) : value)));
    if (distinct.length > 0) filters[key] = distinct;
  }
  return { filters, meta: searchMeta(entry), sort: searchSort(entry) };
}

/** A code of a record in words, by the kind of words a filter reader names (search-keys.ts). */
function inWords(words: string, code: string): string {
  if (words === 'projection') return projectionLabel(code as Projection);
  if (words === 'research_status') return researchStatusLabel(code);
  return enumLabel(words, code);
}

/** A record page's result metadata: title, status and image from its site entry, the key facts a shopper or an engineer looks for first from its card facts (card-facts.ts). */
function searchMeta(entry: SiteEntry): SearchMeta {
  const meta: SearchMeta = { title: entry.title, status: researchStatusLabel(entry.researchStatus) };
  if (entry.image) Object.assign(meta, { image: entry.image.url, image_alt: entry.image.alt });
  const { price, fabric, weight, sizes } = entry.card;
  if (price) meta.price = price;
  if (fabric) meta.fabric = fabric;
  if (weight) meta.weight = weight;
  if (sizes) meta.sizes = sizes;
  return meta;
}

/**
 * A garment's result metadata, from its projections' (commerce first): the title, status and image
 * of the first that has them, the price and sizes of the commerce page, the fabric and weight of the
 * technical one, which projections it has, the names searched but never shown, and the sort keys
 * the browser merges shards by (its latest publication, its price and weight when known).
 */
export function garmentMeta(
  pages: readonly { projection: string; meta: SearchMeta }[],
  names: readonly string[],
  sort: Record<SearchSort, string>,
): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const { projection, meta: page } of pages) {
    meta[`status_${projection}`] = page.status;
    for (const [key, value] of Object.entries(page)) {
      if (key !== 'status' && value !== undefined && meta[key] === undefined) meta[key] = value;
    }
  }
  meta[GARMENT_META.projections] = pages.map((page) => page.projection).join(' ');
  meta[GARMENT_META.published] = sort.published;
  if (sort.price !== NO_NUMBER) meta[GARMENT_META.price] = sort.price;
  if (sort.weight !== NO_NUMBER) meta[GARMENT_META.weight] = sort.weight;
  if (names.length > 0) meta[GARMENT_META.names] = names.join(' · ');
  return meta;
}

/** A record page's sort keys, from its site entry alone: lower-case title, published date as an ISO timestamp, lowest price and weight (card-facts.ts). */
export function searchSort(entry: SiteEntry): Record<SearchSort, string> {
  return {
    title: titleSortKey(entry.title),
    published: isoDate(entry.publishedAt) ?? entry.publishedAt.trim(),
    price: numberSortKey(entry.card.priceValue),
    weight: numberSortKey(entry.card.weightGsm),
  };
}

/**
 * Filter values as a facet shows them: whitespace collapsed, empty values dropped, duplicates
 * (ignoring case) dropped, long values shortened.
 * @example distinctValues([' Navy ', 'navy', null, 'Black']) → ['Navy', 'Black']
 */
export function distinctValues(values: readonly (string | null | undefined)[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const raw of values) {
    const value = filterValue(raw ?? '');
    const key = value.toLocaleLowerCase('en');
    if (value === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(value);
  }
  return kept;
}

function filterValue(text: string): string {
  const value = text.replace(/\s+/g, ' ').trim();
  const chars = [...value];
  return chars.length > MAX_FILTER_VALUE
    ? `${chars
        .slice(0, MAX_FILTER_VALUE - 1)
        .join('')
        .trimEnd()}…`
    : value;
}
