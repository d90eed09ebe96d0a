import { readFileSync } from 'node:fs';
import path from 'node:path';
import { recordFromBytes, type GarmentRecord, type Projection } from '../record/index.ts';
import type { RevisionsSummary } from '../revisions/revision-view.ts';
import { cardFacts, type CardFacts } from './card-facts.ts';
import { t } from './strings.ts';
import { imageAlt } from './image-alt.ts';
import { keyFacts, type KeyFacts } from './key-facts.ts';
import { recordTitle } from './record-title.ts';
import { plainText } from './text.ts';
import { webUrl } from './web-address.ts';

/** What the site knows of one record without holding the whole record in memory. */
export interface SiteEntry {
  slug: string;
  projection: Projection;
  /** The record file's absolute path, read again when its page is rendered. */
  file: string;
  title: string;
  description: string | null;
  category: string | null;
  brand: string | null;
  manufacturer: string | null;
  researchStatus: GarmentRecord['research']['status'];
  recordRevision: string;
  publishedAt: string;
  /** The record's picture for cards and results: its front image (else its first) with an http(s) address, serialized. */
  image: { url: string; alt: string } | null;
  /** Its revisions as published here (src/lib/revisions/), the last being this record. */
  revisions: RevisionsSummary;
  /** What its garment's card and search result show of it, and what listings sort by. */
  card: CardFacts;
}

/** The records of one garment, by projection. */
export type GarmentEntries = Partial<Record<Projection, SiteEntry>>;

/** Every record of a site, and each garment's projections. */
export interface SiteIndex {
  /** Sorted by title, then slug, then projection. */
  entries: SiteEntry[];
  /** The garments whose pages this build renders; null for all (the others' output is carried over from the previous build). */
  renderedSlugs: Set<string> | null;
  /** The projections each garment has, by slug. */
  garments: Map<string, GarmentEntries>;
}

/**
 * The entry a record contributes to the site index, with its revisions (by default it is its only
 * one); `facts` are its key facts, when read already.
 */
export function siteEntryOf(
  record: GarmentRecord,
  file: string,
  revisions: RevisionsSummary = onlyRevision(record),
  facts: KeyFacts = keyFacts(record),
): SiteEntry {
  const { identity } = record.data;
  const title = recordTitle(record);
  const linkable = record.images.flatMap((image) => {
    const url = webUrl(image.url);
    return url ? [{ ...image, url }] : [];
  });
  const image = linkable.find((i) => i.view === 'front') ?? linkable[0];
  return {
    slug: record.slug,
    projection: record.projection,
    file: path.resolve(file),
    title,
    description: record.page.description ? plainText(record.page.description.text) : null,
    category: identity.category,
    brand: identity.brand,
    manufacturer: identity.manufacturer,
    researchStatus: record.research.status,
    recordRevision: record.record_revision,
    publishedAt: record.published_at,
    image: image ? { url: image.url, alt: imageAlt(image, title) } : null,
    revisions,
    card: cardFacts(record, facts),
  };
}

/** The revisions of a record with no history: itself, first published. */
function onlyRevision(record: GarmentRecord): RevisionsSummary {
  return {
    count: 1,
    kept: 0,
    revisions: [
      { number: 1, recordRevision: record.record_revision, publishedAt: record.published_at, summary: t('revisions.summary.first') },
    ],
  };
}

/** Names in reading order, for titles and categories: case and accents aside, numbers by value ("Tee 2" before "Tee 10"). */
export const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true }).compare;

/** Builds the index from entries: sorted, and grouped by garment. */
export function indexEntries(entries: SiteEntry[], renderedSlugs: Set<string> | null = null): SiteIndex {
  const sorted = [...entries].sort(
    (a, b) => byName(a.title, b.title) || a.slug.localeCompare(b.slug) || a.projection.localeCompare(b.projection),
  );
  const garments = new Map<string, GarmentEntries>();
  for (const entry of sorted) garments.set(entry.slug, { ...garments.get(entry.slug), [entry.projection]: entry });
  return { entries: sorted, renderedSlugs, garments };
}

/** Whether this build renders a garment's pages (else they are carried over unchanged). */
export function rendersGarment(index: SiteIndex, slug: string): boolean {
  return index.renderedSlugs === null || index.renderedSlugs.has(slug);
}

/** Reads the full record behind an entry (pages hold one record at a time). */
export function readRecord({ file }: Pick<SiteEntry, 'file'>): GarmentRecord {
  return recordFromBytes(readFileSync(file));
}
