import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { GarmentPressError } from '../errors.ts';
import type { RecordKey } from '../record/index.ts';
import { linkFiles } from '../link-files.ts';
import { readRecord, type SiteEntry } from '../site/site-index.ts';
import { pagePath } from '../site/urls.ts';
import { pagefindAnswer, pagefindUsage, type PagefindUsage } from './pagefind-process.ts';
import { readIndexedPages } from './indexed-pages.ts';
import { reindexedRecord, searchRecord, type IndexedPage, type SearchRecord } from './search-record.ts';
import { indexingOrder, shardOf, shardPath, SHARD_LIST_PATH, type ShardList } from './search-shards.ts';

/** Pagefind could not build the search index; the site being built must not be published. */
export class SearchIndexError extends GarmentPressError {}

/** How indexing went. */
export interface SearchIndexSummary {
  /** Pages in the index: one per record. */
  pages: number;
  /** Pages indexed again from the previous index, without reading their records. */
  reused: number;
  /** Shards of the index, and how many of them were built (the others were kept from the previous index). */
  shards: number;
  built: number;
  seconds: number;
  /** Memory and CPU of the Pagefind process, a child this process's own figures leave out; unknown off Linux. */
  pagefind: PagefindUsage;
}

/** How to build the index. */
export interface SearchIndexOptions<Entry extends RecordKey> {
  /**
   * Records handed to Pagefind before waiting for its answers (default 200). One at a time leaves
   * Pagefind idle between records; a few hundred keep it busy while little is held in memory.
   */
  concurrency?: number;
  /** Called every 1,000 records and once at the end, with the records indexed so far. */
  onProgress?: (indexed: number, total: number) => void;
  /**
   * The last build's index and the garments (slugs) whose records changed since, for a rebuild:
   * a shard holding none of them is kept as it is, and in the others every unchanged garment's
   * pages are indexed again from the text and filters that index holds (given to `pageOf` as
   * `kept`) instead of from their records. Only pass an index this code wrote.
   */
  previous?: PreviousIndex;
  /**
   * The search record of an entry's page, given its page in the previous index when that is kept
   * (see `previous`); `pageFromRecord` makes it from the record. Pages are asked for shard by
   * shard (see indexingOrder). Its failure fails the index.
   */
  pageOf: (entry: Entry, kept: IndexedPage | undefined) => SearchRecord | Promise<SearchRecord>;
  /** Pages per shard aimed at (default SHARD_PAGES). */
  shardPages?: number;
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
 * Pagefind custom record per record page, into `outputPath`, which it replaces: one Pagefind
 * bundle per shard (`<outputPath>/<n>/`, built one after another so only one is in memory) and
 * the list of them (`shards.json`). Any error Pagefind reports, a record that cannot be read, or
 * a shard that does not hold one page per entry becomes a SearchIndexError naming the step.
 */
export async function buildSearchIndex<Entry extends RecordKey>(entries: readonly Entry[], outputPath: string, options: SearchIndexOptions<Entry>): Promise<SearchIndexSummary> {
  const { concurrency = 200, onProgress = () => {}, previous, pageOf, shardPages } = options;
  const started = performance.now();
  const failed = (step: string, detail: string, cause?: unknown) =>
    new SearchIndexError(`search index: Pagefind failed while ${step}: ${detail}`, { cause });
  const shards = indexingOrder(entries, shardPages);
  const previousList = previous && (await readShardList(previous.bundleDir));
  const sameShards = previousList?.count === shards.length;
  const changedShards = new Set([...(previous?.changedSlugs ?? [])].map((slug) => shardOf(slug, shards.length)));
  // With the same shards, a shard's unchanged pages are in its own old bundle; else in any.
  let allKept: Map<string, IndexedPage> | undefined;
  const keptPages = (shard: number): ReadonlyMap<string, IndexedPage> => {
    if (!previous) return new Map();
    if (sameShards) return readIndexedPages(path.join(previous.bundleDir, String(shard)));
    const oldBundles = previousList?.shards.map((bundle) => path.join(previous.bundleDir, path.basename(bundle))) ?? [];
    return (allKept ??= new Map(oldBundles.flatMap((bundle) => [...readIndexedPages(bundle)])));
  };

  // Records handed to Pagefind and not yet answered: it must not be closed before it answers them.
  const unanswered = new Set<Promise<unknown>>();
  let indexed = 0;
  let reused = 0;
  let built = 0;
  const counted = (pages: number) => {
    const before = Math.floor(indexed / PROGRESS_EVERY);
    indexed += pages;
    if (Math.floor(indexed / PROGRESS_EVERY) > before) onProgress(indexed, entries.length);
  };
  try {
    await rm(outputPath, { recursive: true, force: true });
    await mkdir(outputPath, { recursive: true });
    for (const [shard, shardEntries] of shards.entries()) {
      // A shard no garment falls in has no bundle: the browser would have nothing to load.
      if (shardEntries.length === 0) continue;
      const shardDir = path.join(outputPath, String(shard));
      if (previous && sameShards && !changedShards.has(shard)) {
        const oldDir = path.join(previous.bundleDir, String(shard));
        if ((await linkTree(oldDir, shardDir).then(() => indexedPages(shardDir), () => -1)) === shardEntries.length) {
          reused += shardEntries.length;
          counted(shardEntries.length);
          continue;
        }
        await rm(shardDir, { recursive: true, force: true });
      }
      const created = await pagefindAnswer(pagefind.createIndex({}), 'starting to index');
      if (!created.index || created.errors.length > 0) throw failed('starting to index', created.errors.join('; ') || 'no index was created');
      const { index } = created;
      const kept = keptPages(shard);
      const add = async (entry: Entry) => {
        const keptPage = previous?.changedSlugs.has(entry.slug) ? undefined : kept.get(pagePath(entry.slug, entry.projection));
        if (keptPage) reused++;
        const page = await pageOf(entry, keptPage);
        const adding = pagefindAnswer(index.addCustomRecord(page), `adding ${entry.file}`);
        unanswered.add(adding);
        const added = await adding.finally(() => unanswered.delete(adding));
        if (added.errors.length > 0) throw failed(`adding ${entry.file}`, added.errors.join('; '));
        counted(1);
      };
      // A window of records in flight: Pagefind works on some while the next are read.
      const inFlight = new Set<Promise<void>>();
      for (const entry of shardEntries) {
        const adding: Promise<void> = add(entry).finally(() => inFlight.delete(adding));
        inFlight.add(adding);
        if (inFlight.size >= concurrency) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
      const written = await pagefindAnswer(index.writeFiles({ outputPath: shardDir }), `writing the index into ${shardDir}`);
      if (written.errors.length > 0) throw failed(`writing the index into ${shardDir}`, written.errors.join('; '));
      await pagefindAnswer(index.deleteIndex(), 'closing an index');
      const pages = await indexedPages(shardDir);
      if (pages !== shardEntries.length) {
        throw failed('checking the index', `shard ${shard} holds ${pages} pages, expected ${shardEntries.length} (one per record); do two records share a page?`);
      }
      built++;
    }
    if (indexed % PROGRESS_EVERY !== 0 || indexed === 0) onProgress(indexed, entries.length);
    const list: ShardList = { count: shards.length, shards: [...shards.keys()].filter((shard) => shards[shard]!.length > 0).map(shardPath) };
    await writeFile(path.join(outputPath, path.basename(SHARD_LIST_PATH)), `${JSON.stringify(list)}\n`);
    return { pages: indexed, reused, shards: shards.length, built, seconds: (performance.now() - started) / 1000, pagefind: pagefindUsage() };
  } catch (error) {
    if (error instanceof GarmentPressError) throw error;
    // The service itself broke (binary missing, process crashed): say so, keep the cause.
    throw failed('indexing', (error as Error).message ?? String(error), error);
  } finally {
    // Closed while answering, Pagefind writes to a closed pipe and panics, on the build's own error output.
    await Promise.allSettled(unanswered);
    // By now the index is written and checked, or the build fails for a reason already given.
    await pagefindAnswer(pagefind.close(), 'closing').catch(() => {});
  }
}

/** An entry's search page: from its page in the previous index when that is kept, else from its record, read here. */
export function pageFromRecord(entry: SiteEntry, kept: IndexedPage | undefined): SearchRecord {
  if (kept) return reindexedRecord(entry, kept);
  try {
    return searchRecord(entry, readRecord(entry));
  } catch (error) {
    throw new SearchIndexError(`search index: could not read ${entry.file}: ${(error as Error).message}`, { cause: error });
  }
}

/** The shard list of an index written by this code; null when there is no such index. */
async function readShardList(bundleDir: string): Promise<ShardList | null> {
  try {
    const list = JSON.parse(await readFile(path.join(bundleDir, path.basename(SHARD_LIST_PATH)), 'utf8')) as ShardList;
    const isShard = (bundle: unknown) => typeof bundle === 'string' && Number(path.basename(bundle)) < list.count && bundle === shardPath(Number(path.basename(bundle)));
    const valid = Number.isInteger(list.count) && Array.isArray(list.shards) && list.shards.every(isShard);
    return valid ? list : null;
  } catch {
    return null;
  }
}

/** Links every file of a folder into a new one. */
async function linkTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  await linkFiles(entries.filter((entry) => entry.isFile()).map((entry) => path.relative(from, path.join(entry.parentPath, entry.name))), from, to);
}

/** The pages a written index holds, from its entry file (every language counts). */
async function indexedPages(outputPath: string): Promise<number> {
  const entry = JSON.parse(await readFile(path.join(outputPath, 'pagefind-entry.json'), 'utf8')) as { languages: Record<string, { page_count: number }> };
  return Object.values(entry.languages).reduce((sum, language) => sum + language.page_count, 0);
}
