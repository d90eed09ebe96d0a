import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { GarmentPressError } from '../errors.ts';
import { readRecord, type SiteEntry } from '../site/site-index.ts';
import { pagePath } from '../site/urls.ts';
import { pagefindPeakRssMb } from './child-memory.ts';
import { readIndexedPages } from './indexed-pages.ts';
import { reindexedRecord, searchRecord, type IndexedPage, type SearchRecord } from './search-record.ts';

/** Pagefind could not build the search index; the site being built must not be published. */
export class SearchIndexError extends GarmentPressError {}

/** How indexing went. */
export interface SearchIndexSummary {
  /** Pages in the index: one per record. */
  pages: number;
  /** Pages indexed again from the previous index, without reading their records. */
  reused: number;
  seconds: number;
  /** Peak resident memory (MiB) of the Pagefind process, a child this process's own figure leaves out; unknown off Linux. */
  pagefindPeakRssMb?: number;
}

/** How to build the index. */
export interface SearchIndexOptions {
  /**
   * Records handed to Pagefind before waiting for its answers (default 200). One at a time leaves
   * Pagefind idle between records; a few hundred keep it busy while little is held in memory.
   */
  concurrency?: number;
  /** Called every 1,000 records and once at the end, with the records indexed so far. */
  onProgress?: (indexed: number, total: number) => void;
  /**
   * The last build's index and the garments (slugs) whose records changed since, for a rebuild:
   * every other garment's pages are indexed again from the text and filters that index holds,
   * instead of reading and converting their records, which is most of the work. Only pass an
   * index this code wrote. A page it lacks is read from its record as usual.
   */
  previous?: PreviousIndex;
  /**
   * The search record of a page the previous index does not give, from a caller that makes it
   * from a record it reads anyway (the build's record threads); undefined, or no such option,
   * and the record is read here. Its failure fails the index.
   */
  pageOf?: (entry: SiteEntry) => Promise<SearchRecord> | undefined;
}

/** An index written by an earlier build, and what changed since. */
export interface PreviousIndex {
  /** The earlier build's Pagefind folder, e.g. `dist/pagefind`. */
  bundleDir: string;
  /** Slugs of garments with a record added, changed or removed since that build. */
  changedSlugs: ReadonlySet<string>;
}

const PROGRESS_EVERY = 1000;

/**
 * Builds the search index of a site straight from its records (no rendered HTML needed), one
 * Pagefind custom record per record page, and writes it to `outputPath`, which it replaces.
 * Records are read one at a time as they are handed to Pagefind, never all at once. Any error
 * Pagefind reports, a record that cannot be read, or an index that does not hold one page per
 * entry becomes a SearchIndexError naming the step (and the record file).
 */
export async function buildSearchIndex(entries: readonly SiteEntry[], outputPath: string, options: SearchIndexOptions = {}): Promise<SearchIndexSummary> {
  const { concurrency = 200, onProgress = () => {}, previous, pageOf } = options;
  const started = performance.now();
  const failed = (step: string, detail: string, cause?: unknown) =>
    new SearchIndexError(`search index: Pagefind failed while ${step}: ${detail}`, { cause });
  try {
    const created = await pagefind.createIndex({});
    if (!created.index || created.errors.length > 0) throw failed('starting to index', created.errors.join('; ') || 'no index was created');
    const { index } = created;

    const kept: ReadonlyMap<string, IndexedPage> = previous ? readIndexedPages(previous.bundleDir) : new Map();
    let indexed = 0;
    let reused = 0;
    const add = async (entry: SiteEntry) => {
      const keptPage = previous?.changedSlugs.has(entry.slug) ? undefined : kept.get(pagePath(entry.slug, entry.projection));
      if (keptPage) reused++;
      const page = keptPage ? reindexedRecord(entry, keptPage) : await (pageOf?.(entry) ?? recordPage(entry));
      const added = await index.addCustomRecord(page);
      if (added.errors.length > 0) throw failed(`adding ${entry.file}`, added.errors.join('; '));
      if (++indexed % PROGRESS_EVERY === 0) onProgress(indexed, entries.length);
    };
    // A window of records in flight: Pagefind works on some while the next are read.
    const inFlight = new Set<Promise<void>>();
    for (const entry of entries) {
      const adding: Promise<void> = add(entry).finally(() => inFlight.delete(adding));
      inFlight.add(adding);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    if (indexed % PROGRESS_EVERY !== 0) onProgress(indexed, entries.length);

    await rm(outputPath, { recursive: true, force: true });
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length > 0) throw failed(`writing the index into ${outputPath}`, written.errors.join('; '));
    const pages = await indexedPages(outputPath);
    if (pages !== entries.length) throw failed('checking the index', `it holds ${pages} pages, expected ${entries.length} (one per record); do two records share a page?`);

    return { pages, reused, seconds: (performance.now() - started) / 1000, pagefindPeakRssMb: pagefindPeakRssMb() };
  } catch (error) {
    if (error instanceof GarmentPressError) throw error;
    // The service itself broke (binary missing, process crashed): say so, keep the cause.
    throw failed('indexing', (error as Error).message ?? String(error), error);
  } finally {
    await pagefind.close();
  }
}

async function recordPage(entry: SiteEntry): Promise<SearchRecord> {
  try {
    return searchRecord(entry, readRecord(entry));
  } catch (error) {
    throw new SearchIndexError(`search index: could not read ${entry.file}: ${(error as Error).message}`, { cause: error });
  }
}

/** The pages a written index holds, from its entry file (every language counts). */
async function indexedPages(outputPath: string): Promise<number> {
  const entry = JSON.parse(await readFile(path.join(outputPath, 'pagefind-entry.json'), 'utf8')) as { languages: Record<string, { page_count: number }> };
  return Object.values(entry.languages).reduce((sum, language) => sum + language.page_count, 0);
}
