import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as pagefind from 'pagefind';
import { errorMessage, GarmentPressError } from '../../errors.ts';
import type { RecordKey } from '../../record/index.ts';
import { linkFiles } from '../../link-files.ts';
import { readRecord, type SiteEntry } from '../../site/site-index.ts';
import { garmentPath } from '../../site/urls.ts';
import type { FilterCounts, PagefindEntry } from '../query/pagefind-api.ts';
import { pagefindAnswer, pagefindUsage, type PagefindUsage } from './pagefind-process.ts';
import { readIndexedPages } from './indexed-pages.ts';
import { garmentPage, reindexedPage, searchRecord, type GarmentPage, type IndexedPage, type SearchRecord } from './search-record.ts';
import {
  indexingOrder,
  shardFolder,
  shardNumber,
  shardOf,
  shardPath,
  SHARD_SUMMARY_FILE,
  WORDS_PATH,
  type ShardSummary,
} from './shard-layout.ts';
import { SHARD_LIST_PATH, type ShardList } from '../query/shard-list.ts';
import { textWords, wordKey, type WordList } from '../query/search-words.ts';

/** Pagefind could not build the search index; the site being built must not be published. */
export class SearchIndexError extends GarmentPressError {}

/** How indexing went. */
export interface SearchIndexSummary {
  /** Records in the index (each garment's page holds its records). */
  pages: number;
  /** Records indexed again from the previous index, without reading them. */
  reused: number;
  /** Pages in the index: one per garment. */
  garments: number;
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
   * page is indexed again from the text, metadata and filters that index holds, without asking
   * `pageOf`. Only pass an index this code wrote.
   */
  previous?: PreviousIndex;
  /**
   * The search record of an entry's page; `pageFromRecord` makes it from the record. Records are
   * asked for shard by shard, a garment's together (see indexingOrder). Its failure fails the index.
   */
  pageOf: (entry: Entry) => SearchRecord | Promise<SearchRecord>;
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

/** Files of Pagefind's bundle the site does not use: its ready-made interfaces, and the WebAssembly for pages of no language. */
const UNUSED_BUNDLE_FILES = /^(pagefind-(ui|component-ui|modular-ui)\.(js|css)|pagefind-highlight\.js|wasm\.unknown\.pagefind)$/;

/**
 * Builds the search index of a site straight from its records (no rendered HTML needed), one
 * Pagefind custom record per garment (its records' text, names, filters and metadata together),
 * into `outputPath`, which it replaces: one Pagefind bundle per shard (`<outputPath>/<n>/`, built
 * one after another so only one is in memory, less the bundle files the site does not use), the
 * site's words by first character (`words/`), and the list of them all (`shards.json`). Any error
 * Pagefind reports, a record that cannot be read, or a shard that does not hold one page per
 * garment becomes a SearchIndexError naming the step.
 */
export async function buildSearchIndex<Entry extends RecordKey>(
  entries: readonly Entry[],
  outputPath: string,
  options: SearchIndexOptions<Entry>,
): Promise<SearchIndexSummary> {
  const { concurrency = 200, onProgress = () => {}, previous, pageOf, shardPages } = options;
  const started = performance.now();
  const failed = (step: string, detail: string, cause?: unknown) =>
    new SearchIndexError(`search index: Pagefind failed while ${step}: ${detail}`, { cause });
  const shards = indexingOrder(entries, shardPages);
  const previousList = previous && (await readShardList(previous.bundleDir));
  const sameShards = previousList?.count === shards.length;
  // The previous index's folder of each shard, by number.
  const oldFolders = new Map((previousList?.shards ?? []).map((bundle) => [shardNumber(path.basename(bundle))!, path.basename(bundle)]));
  const changedShards = new Set([...(previous?.changedSlugs ?? [])].map((slug) => shardOf(slug, shards.length)));
  // With the same shards, a shard's unchanged pages are in its own old bundle; else in any.
  let allKept: Map<string, IndexedPage> | undefined;
  const keptPages = (shard: number): ReadonlyMap<string, IndexedPage> => {
    if (!previous) return new Map();
    if (sameShards) return oldFolders.has(shard) ? readIndexedPages(path.join(previous.bundleDir, oldFolders.get(shard)!)) : new Map();
    const oldBundles = previousList?.shards.map((bundle) => path.join(previous.bundleDir, path.basename(bundle))) ?? [];
    return (allKept ??= new Map(oldBundles.flatMap((bundle) => [...readIndexedPages(bundle)])));
  };

  // Garments being made or added: Pagefind must not be closed before every record handed to it is answered.
  const inFlight = new Set<Promise<void>>();
  let indexed = 0;
  let reused = 0;
  let built = 0;
  let garmentCount = 0;
  const counted = (pages: number) => {
    const before = Math.floor(indexed / PROGRESS_EVERY);
    indexed += pages;
    if (Math.floor(indexed / PROGRESS_EVERY) > before) onProgress(indexed, entries.length);
  };
  const summaries: (ShardSummary | null)[] = [];
  const folders: (string | undefined)[] = [];
  try {
    await rm(outputPath, { recursive: true, force: true });
    await mkdir(outputPath, { recursive: true });
    for (const [shard, shardEntries] of shards.entries()) {
      // A shard no garment falls in has no bundle: the browser would have nothing to load.
      summaries.push(null);
      if (shardEntries.length === 0) continue;
      // Written under its number, then named by its content once Pagefind has written it.
      let shardDir = path.join(outputPath, String(shard));
      const garments = [...Map.groupBy(shardEntries, (entry) => entry.slug).values()];
      garmentCount += garments.length;
      if (previous && sameShards && !changedShards.has(shard)) {
        const oldFolder = oldFolders.get(shard);
        const keptDir = oldFolder && path.join(outputPath, oldFolder);
        const summary = keptDir
          ? await linkTree(path.join(previous.bundleDir, oldFolder), keptDir).then(
              () => keptSummary(keptDir, garments.length),
              () => null,
            )
          : null;
        if (summary && keptDir) {
          folders[shard] = oldFolder;
          summaries[shard] = summary;
          reused += shardEntries.length;
          counted(shardEntries.length);
          continue;
        }
        if (keptDir) await rm(keptDir, { recursive: true, force: true });
      }
      const created = await pagefindAnswer(pagefind.createIndex({}), 'starting to index');
      if (!created.index || created.errors.length > 0)
        throw failed('starting to index', created.errors.join('; ') || 'no index was created');
      const { index } = created;
      const kept = keptPages(shard);
      const summary: ShardSummary = {
        words: Object.create(null) as ShardSummary['words'],
        filters: Object.create(null) as ShardSummary['filters'],
      };
      // Pagefind numbers pages in the order they are added, so they are added in indexing order
      // whichever record thread makes its page first: two builds of the same records write the same index.
      let handedOver: Promise<unknown> = Promise.resolve();
      const add = async (records: Entry[]) => {
        if (new Set(records.map((entry) => entry.projection)).size < records.length) {
          throw failed(
            'checking the index',
            `${records.map((entry) => entry.file).join(' and ')} would be one page (${records[0]!.slug}, ${records[0]!.projection}); do two records share a page?`,
          );
        }
        const keptPage = previous?.changedSlugs.has(records[0]!.slug) ? undefined : kept.get(garmentPath(records[0]!.slug));
        if (keptPage) reused += records.length;
        const made = keptPage
          ? Promise.resolve(reindexedPage(garmentPath(records[0]!.slug), keptPage))
          : Promise.all(records.map(pageOf)).then(garmentPage);
        const turn = Promise.all([made, handedOver]).then(([page]) => {
          addToSummary(summary, page);
          const answer = pagefindAnswer(index.addCustomRecord(page), `adding ${records.map((entry) => entry.file).join(' and ')}`);
          // In an object: the answer is awaited below, not before the next page is handed over.
          return { answer };
        });
        handedOver = turn.catch(() => {});
        const added = await (await turn).answer;
        if (added.errors.length > 0) throw failed(`adding ${records.map((entry) => entry.file).join(' and ')}`, added.errors.join('; '));
        counted(records.length);
      };
      // A window of garments in flight: Pagefind works on some while the next are read.
      for (const garment of garments) {
        const adding: Promise<void> = add(garment).finally(() => inFlight.delete(adding));
        inFlight.add(adding);
        if (inFlight.size >= concurrency) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
      const written = await pagefindAnswer(index.writeFiles({ outputPath: shardDir }), `writing the index into ${shardDir}`);
      if (written.errors.length > 0) throw failed(`writing the index into ${shardDir}`, written.errors.join('; '));
      await pagefindAnswer(index.deleteIndex(), 'closing an index');
      const entry = await readIndexEntry(shardDir);
      const pages = indexedPages(entry);
      if (pages !== garments.length) {
        throw failed(
          'checking the index',
          `shard ${shard} holds ${pages} pages, expected ${garments.length} (one per garment); do two records share a page?`,
        );
      }
      await dropUnusedFiles(shardDir);
      const ordered = filtersInOrder(summary);
      await writeFile(path.join(shardDir, SHARD_SUMMARY_FILE), `${JSON.stringify(ordered)}\n`);
      folders[shard] = shardFolder(shard, indexTag(entry));
      await rename(shardDir, (shardDir = path.join(outputPath, folders[shard]!)));
      summaries[shard] = ordered;
      built++;
    }
    if (indexed % PROGRESS_EVERY !== 0 || indexed === 0) onProgress(indexed, entries.length);
    await writeShardList(outputPath, shards, folders, summaries);
    return {
      pages: indexed,
      reused,
      garments: garmentCount,
      shards: shards.length,
      built,
      seconds: (performance.now() - started) / 1000,
      pagefind: pagefindUsage(),
    };
  } catch (error) {
    if (error instanceof GarmentPressError) throw error;
    // The service itself broke (binary missing, process crashed): say so, keep the cause.
    throw failed('indexing', errorMessage(error), error);
  } finally {
    // Closed while answering, Pagefind writes to a closed pipe and panics, on the build's own error output;
    // after a failure, the garments still being made are handed over, so they are waited for too.
    await Promise.allSettled(inFlight);
    // By now the index is written and checked, or the build fails for a reason already given.
    await pagefindAnswer(pagefind.close(), 'closing').catch(() => {});
  }
}

/** The shard list (`shards.json`): each shard's bundle, tag and entry file, the site's filter values and its word lists. */
async function writeShardList(
  outputPath: string,
  shards: readonly unknown[][],
  folders: readonly (string | undefined)[],
  summaries: readonly (ShardSummary | null)[],
): Promise<void> {
  const bundles = [...shards.keys()].filter((shard) => shards[shard]!.length > 0);
  const indexEntries = await Promise.all(bundles.map((shard) => readIndexEntry(path.join(outputPath, folders[shard]!))));
  const list: ShardList = {
    count: shards.length,
    shards: bundles.map((shard) => shardPath(folders[shard]!)),
    tags: indexEntries.map(indexTag),
    entries: indexEntries,
    filters: siteFilters(summaries),
    words: await writeWordLists(outputPath, summaries),
  };
  await writeFile(path.join(outputPath, path.basename(SHARD_LIST_PATH)), `${JSON.stringify(list)}\n`);
}

/** An entry's search record, from its record, read here. */
export function pageFromRecord(entry: SiteEntry): SearchRecord {
  try {
    return searchRecord(entry, readRecord(entry));
  } catch (error) {
    throw new SearchIndexError(`search index: could not read ${entry.file}: ${errorMessage(error)}`, { cause: error });
  }
}

/** Counts a garment's words and filter values into its shard's summary (objects without a prototype: a word may be `constructor`). */
function addToSummary(summary: ShardSummary, page: GarmentPage): void {
  for (const word of textWords(`${page.content} ${page.meta.title ?? ''} ${page.meta.names ?? ''}`))
    summary.words[word] = (summary.words[word] ?? 0) + 1;
  for (const [filter, values] of Object.entries(page.filters)) {
    const counts = (summary.filters[filter] ??= Object.create(null) as Record<string, number>);
    for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  }
}

/**
 * A shard's summary with its filters and their values in name order: a page kept from the last index
 * lists its filters as Pagefind keeps them, a page made afresh as the record gives them, and a rebuild
 * must write what a fresh build writes.
 */
function filtersInOrder({ words, filters }: ShardSummary): ShardSummary {
  const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);
  const ordered = Object.entries(filters)
    .sort(byName)
    .map(([filter, counts]) => [filter, Object.fromEntries(Object.entries(counts).sort(byName))] as const);
  return { words, filters: Object.fromEntries(ordered) };
}

/** The summary of a shard kept from the last index, when it is one this code wrote and holds the garments expected. */
async function keptSummary(shardDir: string, garments: number): Promise<ShardSummary | null> {
  try {
    if (indexedPages(await readIndexEntry(shardDir)) !== garments) return null;
    const summary = JSON.parse(await readFile(path.join(shardDir, SHARD_SUMMARY_FILE), 'utf8')) as ShardSummary;
    return typeof summary.words === 'object' && typeof summary.filters === 'object' ? summary : null;
  } catch {
    return null;
  }
}

/** Removes what Pagefind writes that the site does not load. */
async function dropUnusedFiles(shardDir: string): Promise<void> {
  const names = await readdir(shardDir);
  await Promise.all(names.filter((name) => UNUSED_BUNDLE_FILES.test(name)).map((name) => rm(path.join(shardDir, name))));
}

/** Garments per filter value over the site, from its shards' summaries. */
function siteFilters(summaries: readonly (ShardSummary | null)[]): FilterCounts {
  const site: FilterCounts = Object.create(null) as FilterCounts;
  for (const summary of summaries) {
    for (const [filter, values] of Object.entries(summary?.filters ?? {})) {
      const counts = (site[filter] ??= Object.create(null) as Record<string, number>);
      for (const [value, count] of Object.entries(values)) counts[value] = (counts[value] ?? 0) + count;
    }
  }
  return site;
}

/** Writes the site's words, one file per first character named by its content's hash; returns the files by key. */
async function writeWordLists(outputPath: string, summaries: readonly (ShardSummary | null)[]): Promise<Record<string, string>> {
  const lists = new Map<string, Map<string, WordList[string]>>();
  for (const [shard, summary] of summaries.entries()) {
    for (const [word, garments] of Object.entries(summary?.words ?? {})) {
      const key = wordKey(word);
      const list = lists.get(key) ?? lists.set(key, new Map()).get(key)!;
      const known = list.get(word) ?? list.set(word, [0, []]).get(word)!;
      known[0] += garments;
      known[1].push(shard);
    }
  }
  const dir = path.join(outputPath, path.basename(WORDS_PATH));
  await mkdir(dir, { recursive: true });
  const files: Record<string, string> = {};
  for (const [key, list] of [...lists].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const text = `${JSON.stringify(Object.fromEntries(list))}\n`;
    const name = `${key}.${createHash('sha256').update(text).digest('hex').slice(0, 12)}.json`;
    await writeFile(path.join(dir, name), text);
    files[key] = `${WORDS_PATH}${name}`;
  }
  return files;
}

/** A written index's entry file. */
async function readIndexEntry(bundleDir: string): Promise<PagefindEntry> {
  return JSON.parse(await readFile(path.join(bundleDir, 'pagefind-entry.json'), 'utf8')) as PagefindEntry;
}

/** A bundle's content tag: the hash Pagefind gives its index, which changes whenever the index does. */
function indexTag(entry: PagefindEntry): string {
  return Object.values(entry.languages)
    .map((language) => language.hash)
    .join('-');
}

/** The shard list of an index written by this code; null when there is no such index. */
async function readShardList(bundleDir: string): Promise<ShardList | null> {
  try {
    const list = JSON.parse(await readFile(path.join(bundleDir, path.basename(SHARD_LIST_PATH)), 'utf8')) as ShardList;
    const isShard = (bundle: unknown) => {
      const shard = typeof bundle === 'string' ? shardNumber(path.basename(bundle)) : null;
      return shard !== null && shard < list.count && bundle === shardPath(path.basename(bundle as string));
    };
    const valid = Number.isInteger(list.count) && Array.isArray(list.shards) && list.shards.every(isShard);
    return valid ? list : null;
  } catch {
    return null;
  }
}

/** Links every file of a folder into a new one. */
async function linkTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  await linkFiles(
    entries.filter((entry) => entry.isFile()).map((entry) => path.relative(from, path.join(entry.parentPath, entry.name))),
    from,
    to,
  );
}

/** The pages an index holds, from its entry file (every language counts). */
function indexedPages(entry: PagefindEntry): number {
  return Object.values(entry.languages).reduce((sum, language) => sum + language.page_count, 0);
}
