import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { checkRecords, formatProblem, recordFromBytes, type GarmentRecord, type Projection } from '../record/index.ts';
import { GarmentPressError } from '../errors.ts';
import { recordTitle } from './record-title.ts';
import { plainText, webUrl } from './text.ts';

/** The build was asked to render records that do not validate. */
export class InvalidRecordsError extends GarmentPressError {}

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

/** The entry a record contributes to the site index. */
export function siteEntryOf(record: GarmentRecord, file: string): SiteEntry {
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
    image: image ? { url: image.url, alt: `${title}, ${image.kind} ${image.view} view${image.color_name ? `, ${image.color_name}` : ''}` } : null,
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

const loaded = new Map<string, Promise<SiteIndex>>();

/** Loads and validates the records of a folder once per process; refuses to build from invalid records. */
export function loadSiteIndex(recordsDir: string): Promise<SiteIndex> {
  return once(`records:${recordsDir}`, async () => {
    const { records, problems } = await checkRecords([recordsDir], { summarize: ({ file, record }) => siteEntryOf(record, file) });
    const errors = problems.filter((p) => p.severity === 'error');
    if (errors.length > 0) {
      throw new InvalidRecordsError(`${errors.length} invalid record problem(s); run npm run validate:\n${errors.map(formatProblem).join('\n')}`);
    }
    return indexEntries(records.map((r) => r.summary));
  });
}

/**
 * Writes the entries of records already validated, for the build to read instead of validating
 * again, and which garments to render (null: all).
 */
export async function writeSiteIndexFile(file: string, entries: SiteEntry[], renderedSlugs: Set<string> | null = null): Promise<void> {
  await writeFile(file, JSON.stringify({ entries, renderedSlugs: renderedSlugs && [...renderedSlugs] }));
}

/** Reads what writeSiteIndexFile wrote, once per process. */
export function readSiteIndexFile(file: string): Promise<SiteIndex> {
  return once(`file:${file}`, async () => {
    const { entries, renderedSlugs } = JSON.parse(await readFile(file, 'utf8')) as { entries: SiteEntry[]; renderedSlugs: string[] | null };
    return indexEntries(entries, renderedSlugs && new Set(renderedSlugs));
  });
}

/** Whether this build renders a garment's pages (else they are carried over unchanged). */
export function rendersGarment(index: SiteIndex, slug: string): boolean {
  return index.renderedSlugs === null || index.renderedSlugs.has(slug);
}

function once(key: string, load: () => Promise<SiteIndex>): Promise<SiteIndex> {
  let index = loaded.get(key);
  if (!index) loaded.set(key, (index = load()));
  return index;
}

/** Reads the full record behind an entry (pages hold one record at a time). */
export function readRecord({ file }: Pick<SiteEntry, 'file'>): GarmentRecord {
  return recordFromBytes(readFileSync(file));
}

