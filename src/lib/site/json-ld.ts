import type { GarmentRecord, Links } from '../record/types.ts';
import { isoDate } from '../record/timestamp.ts';
import { recordTitle } from './record-title.ts';
import { ASTRAL_NONCHARACTER, FORBIDDEN_IN_HTML } from '../unicode.ts';
import { firstPresent, plainText } from './text.ts';
import { webUrl } from './web-address.ts';

/** A JSON-LD node: plain JSON, no undefined values. */
export type JsonLd = { [key: string]: JsonLdValue };
type JsonLdValue = string | number | boolean | JsonLd | JsonLdValue[];

/** What a record page's JSON-LD says of the record itself, before its links are known (part of its page view). */
export interface DatasetFacts {
  name: string;
  description: string;
  identifier: string;
  version: string;
  datePublished: string | null;
  creativeWorkStatus: string;
  schemaVersion: string;
  keywords: string[];
  /** The garment, as a schema.org Product. */
  about: JsonLd;
}

/** The record's facts for its JSON-LD (datasetJsonLd). */
export function datasetFacts(record: GarmentRecord): DatasetFacts {
  const { identity } = record.data;
  const name = recordTitle(record);
  const description = record.page.description ?? record.page.summary ?? record.page.headline;
  const images = record.images.map((image) => webUrl(image.url)).filter((url) => url !== null);
  return {
    name,
    description: description ? plainText(description.text) : `Research record (${record.projection}) of ${name}`,
    identifier: record.record_id ?? `${record.slug}/${record.projection}`,
    version: record.record_revision,
    datePublished: isoDate(record.published_at),
    creativeWorkStatus: record.research.status,
    schemaVersion: record.schema_version,
    keywords: [identity.category, identity.brand, record.projection === 'svc' ? 'commerce' : 'technical'].filter((k): k is string =>
      Boolean(k),
    ),
    about: compact({
      '@type': 'Product',
      name: firstPresent(identity.official_name) ?? name,
      brand: identity.brand ? { '@type': 'Brand', name: identity.brand } : undefined,
      manufacturer: identity.manufacturer ? { '@type': 'Organization', name: identity.manufacturer } : undefined,
      category: [identity.category, identity.subcategory].filter(Boolean).join(' > ') || undefined,
      mpn: identity.style_code ?? undefined,
      sku: record.catalog?.svc_sku,
      alternateName: identity.aliases?.length ? identity.aliases : undefined,
      countryOfOrigin: identity.country_of_origin?.length
        ? identity.country_of_origin.map((name) => ({ '@type': 'Country', name }))
        : undefined,
      url: webUrl(identity.manufacturer_url) ?? undefined,
      image: images.length ? images : undefined,
    }),
  };
}

/**
 * schema.org JSON-LD for a record page: a Dataset (the research snapshot, with its JSON and
 * Markdown downloads) about a Product (the garment). No offers or ratings: prices in a record
 * are timestamped observations, not quotes, so they are not asserted as schema.org Offers.
 */
export function datasetJsonLd(facts: DatasetFacts, links: Links): JsonLd {
  const downloads: JsonLd[] = [];
  if (links.json) downloads.push({ '@type': 'DataDownload', contentUrl: links.json, encodingFormat: 'application/json' });
  if (links.markdown) downloads.push({ '@type': 'DataDownload', contentUrl: links.markdown, encodingFormat: 'text/markdown' });
  return compact({
    '@context': 'https://schema.org',
    '@type': 'Dataset',
    '@id': links.page ?? undefined,
    name: facts.name,
    description: facts.description,
    url: links.page ?? undefined,
    identifier: facts.identifier,
    version: facts.version,
    datePublished: facts.datePublished ?? undefined,
    creativeWorkStatus: facts.creativeWorkStatus,
    schemaVersion: links.schema ?? facts.schemaVersion,
    keywords: facts.keywords,
    about: facts.about,
    distribution: downloads.length ? downloads : undefined,
  });
}

/**
 * JSON text that is safe as the content of a `<script>` element: `<`, `>` and `&` are written
 * as JSON escapes, so no record string can close the element or open a comment, and so are the
 * characters HTML forbids in a document (controls, noncharacters) and the two line separators.
 * @example scriptSafeJson({ a: '</script>' }) → '{"a":"\\u003c/script\\u003e"}'
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(SCRIPT_UNSAFE, jsonEscapes);
}

const SCRIPT_UNSAFE = new RegExp(String.raw`[<>&\u2028\u2029${FORBIDDEN_IN_HTML}]|${ASTRAL_NONCHARACTER}`, 'g');

/** Characters as JSON escapes, one per UTF-16 unit (two for a character beyond the BMP). @example jsonEscapes('<') → the six characters \\u003c */
export function jsonEscapes(text: string): string {
  let escaped = '';
  for (let i = 0; i < text.length; i++) escaped += `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return escaped;
}

/** Drops undefined fields, so the JSON-LD carries only what the record knows. */
function compact(fields: { [key: string]: JsonLdValue | undefined }): JsonLd {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as JsonLd;
}
