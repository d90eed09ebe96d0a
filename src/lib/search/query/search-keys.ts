// The names (and the title's sort key) the index and the browser share. This module imports
// nothing but types and the size labels' spelling, so the search script can use it without pulling the site's formatting and
// Markdown code into the browser (which takes only SEARCH_FILTERS; the readers stay out of its bundle).
import type { GarmentRecord } from '../../record/types.ts';
import { sizeLabel } from './size-labels.ts';

/** The filters every record page offers the search, in the order the search UI shows them. */
export const SEARCH_FILTERS = [
  'projection',
  'category',
  'brand',
  'manufacturer',
  'status',
  'decoration',
  'fabric',
  'construction',
  'fiber',
  'color',
  'size',
] as const;

/** A filter of the search index. */
export type SearchFilter = (typeof SEARCH_FILTERS)[number];

/** Filters renamed to the schema's spelling, whose old names search addresses people kept still carry. */
export const RENAMED_FILTERS: ReadonlyMap<string, SearchFilter> = new Map([
  ['colour', 'color'],
  ['fibre', 'fiber'],
]);

/**
 * How a filter reads its values from a record: the values, and what says them in words, when the
 * record gives codes: an enumeration's label group in strings.ts (`enum.<group>.<value>`), or
 * `projection` or `research_status`. search-fields.ts applies it; a filter's name for people is
 * `search.filter.<key>` in strings.ts.
 */
export interface FilterReader {
  values: (record: GarmentRecord) => readonly (string | null | undefined)[];
  words?: string;
}

/** Each filter's reader: adding a filter is its key above and its reader here. */
export const FILTER_READERS: Record<SearchFilter, FilterReader> = {
  projection: { values: (record) => [record.projection], words: 'projection' },
  category: { values: (record) => [record.data.identity.category] },
  brand: { values: (record) => [record.data.identity.brand] },
  manufacturer: { values: (record) => [record.data.identity.manufacturer] },
  status: { values: (record) => [record.research.status], words: 'research_status' },
  // Methods the record offers: not those it says are unsupported.
  decoration: {
    values: (record) =>
      record.projection === 'svc'
        ? record.data.decoration_methods.filter((m) => m.method !== null && m.supported !== false).map((m) => m.method)
        : [],
    words: 'decoration_method',
  },
  fabric: { values: (record) => record.data.material_profiles.map((m) => m.knit_or_weave?.toLocaleLowerCase('en')) },
  construction: { values: (record) => record.data.material_profiles.map((m) => m.fabric_construction?.toLocaleLowerCase('en')) },
  fiber: { values: (record) => record.data.material_profiles.flatMap((m) => m.fiber_names ?? []).map((f) => f.toLocaleLowerCase('en')) },
  color: { values: (record) => record.data.colors.map((c) => c.manufacturer_name) },
  // One spelling per size (`XXL` is `2XL`), as the index's words and a query's have it.
  size: { values: (record) => record.data.size_ranges.flatMap((s) => s.labels ?? []).map(sizeLabel) },
};

/** A sort key every garment's page carries: a page without it would drop out of results sorted by it. */
export type SearchSort = 'title' | 'published' | 'price' | 'weight';

/** The sort keys of a number, lowest first, each kept in the garment's metadata too (the browser merges the shards by it). */
export type NumberSort = Extract<SearchSort, 'price' | 'weight'>;

/** The sort key of a garment without the number: after every number. */
export const NO_NUMBER = '9'.repeat(12);

/**
 * A number's sort key: hundredths, zero-padded, so plain string order (the shards' merge) and
 * numeric order (Pagefind's, when every value is a number) agree; no number sorts last.
 * @example numberSortKey(18.4) → '000000001840'; numberSortKey(undefined) → '999999999999'
 */
export function numberSortKey(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value) || value < 0) return NO_NUMBER;
  return String(Math.min(Math.round(value * 100), Number(NO_NUMBER) - 1)).padStart(NO_NUMBER.length, '0');
}

/**
 * The title's sort key: the index sorts each shard by it, and the browser merges the shards by it.
 * Each run of digits is led by its length, so numbers sort by value in plain string order.
 * @example titleSortKey('Tee 10') → 'tee 00210', after titleSortKey('Tee 2') → 'tee 0012'
 */
export function titleSortKey(title: string): string {
  return title.toLocaleLowerCase('en').replace(/\d+/g, (digits) => {
    const value = digits.replace(/^0+(?=\d)/, '');
    return `${String(value.length).padStart(3, '0')}${value}`;
  });
}

/**
 * Metadata keys of a garment's result besides its projections' own: which projections it has, its
 * latest publication (its sort key), the names searched but never shown, and the sort keys of its
 * lowest price and its weight (when known).
 */
export const GARMENT_META = {
  projections: 'projections',
  names: 'names',
  published: 'published',
  price: 'price_sort',
  weight: 'weight_sort',
} as const;

/** Where the build writes the index and Pagefind's scripts, on the site. */
export const SEARCH_BUNDLE_PATH = '/pagefind/';

/** The search page's path; the search box's form is sent there when the script cannot run. */
export const SEARCH_PAGE_PATH = '/search/';
