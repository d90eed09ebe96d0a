import type { GarmentRecord } from '../record/types.ts';
import { enumLabel, isoDate, researchStatusLabel } from '../site/format.ts';
import type { SiteEntry } from '../site/site-index.ts';
import { projectionLabel } from '../site/strings.ts';
import { SEARCH_FILTERS, titleSortKey, type SearchFilter, type SearchSort } from './search-keys.ts';

/** What a search result shows besides its excerpt; every value is plain text. */
export interface SearchMeta {
  title: string;
  /** The projection's name: Commerce or Technical. */
  projection: string;
  /** The projection's code (`svc`, `tech`), for styling. */
  projection_code: string;
  /** The research status, in words. */
  status: string;
  /** The published sort key, for merging sorted results across shards (the title's is the title). */
  published: string;
  /** An http(s) image; absent when the record has none. */
  image?: string;
  image_alt?: string;
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
 * The search fields of a record page, from its site entry (title, image, identity) and the full record
 * (decoration methods, materials, colours, sizes); searchRecord adds them to the page's text.
 */
export function searchFields(entry: SiteEntry, record: GarmentRecord): SearchFields {
  const { data } = record;
  const materials = data.material_profiles;
  const decoration = record.projection === 'svc'
    ? record.data.decoration_methods.filter((m) => m.method !== null && m.supported !== false).map((m) => enumLabel('decoration_method', m.method))
    : [];
  const raw: Record<SearchFilter, (string | null | undefined)[]> = {
    projection: [projectionLabel(entry.projection)],
    category: [entry.category],
    brand: [entry.brand],
    manufacturer: [entry.manufacturer],
    status: [researchStatusLabel(entry.researchStatus)],
    decoration,
    fabric: materials.map((m) => m.knit_or_weave?.toLocaleLowerCase('en')),
    construction: materials.map((m) => m.fabric_construction?.toLocaleLowerCase('en')),
    fibre: materials.flatMap((m) => m.fiber_names ?? []).map((f) => f.toLocaleLowerCase('en')),
    colour: data.colors.map((c) => c.manufacturer_name),
    size: data.size_ranges.flatMap((s) => s.labels ?? []),
  };
  const filters: SearchFields['filters'] = {};
  for (const key of SEARCH_FILTERS) {
    const values = distinctValues(raw[key]);
    if (values.length > 0) filters[key] = values;
  }

  return { filters, meta: searchMeta(entry), sort: searchSort(entry) };
}

/** A record page's result metadata, from its site entry alone. */
export function searchMeta(entry: SiteEntry): SearchMeta {
  const image = entry.image ? { image: entry.image.url, image_alt: entry.image.alt } : {};
  return {
    title: entry.title,
    projection: projectionLabel(entry.projection),
    projection_code: entry.projection,
    status: researchStatusLabel(entry.researchStatus),
    published: searchSort(entry).published,
    ...image,
  };
}

/** A record page's sort keys, from its site entry alone: lower-case title, published date as an ISO timestamp. */
export function searchSort(entry: SiteEntry): Record<SearchSort, string> {
  return {
    title: titleSortKey(entry.title),
    published: isoDate(entry.publishedAt) ?? entry.publishedAt.trim(),
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
  return chars.length > MAX_FILTER_VALUE ? `${chars.slice(0, MAX_FILTER_VALUE - 1).join('').trimEnd()}…` : value;
}
