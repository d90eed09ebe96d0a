import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { GarmentPressError } from '../errors.ts';
import type { FileCheck, FileStat, RecordKey } from '../record/index.ts';
import { buildSearchIndex, pageFromRecord, type PreviousIndex, type SearchIndexSummary } from '../search/index/index-site.ts';
import { SEARCH_BUNDLE_PATH } from '../search/query/search-keys.ts';
import { indexingOrder } from '../search/index/shard-layout.ts';
import type { SearchRecord } from '../search/index/search-record.ts';
import { indexEntries, rendersGarment, type SiteEntry } from '../site/site-index.ts';
import { pagePath } from '../site/urls.ts';

/** A record's page or twins could not be made or written; the site being built must not be published. */
export class RecordFilesError extends GarmentPressError {}

/** Where the record threads write, and what every page links. */
export interface OutputPlace {
  /** The site folder being built: pages and twins go under `garments/`, the index into `pagefind/`. */
  siteDir: string;
  /** The site's absolute address, for `links`. */
  site: string;
  /** The site path of the stylesheet every page links. */
  stylesheet: string;
  /** The records folder, whose archive holds the revisions its records replaced (see archivedRevisions); without it, each record is its only revision. */
  recordsDir?: string;
  /** Pages per search index shard aimed at (default SHARD_PAGES). */
  shardPages?: number;
}

/** Records checked already: every record of the site, and which garments to render. */
interface CheckedRecords {
  entries: SiteEntry[];
  /** Each record file's size and modification time when it was checked, by absolute path (as entries name files): a thread renders a file only as it was checked. */
  checkedFiles: ReadonlyMap<string, FileStat>;
  /** The garments rendered by this build (their pages and twins are written); null for all. */
  renderedSlugs: string[] | null;
  /** The last build's index, to take unchanged garments' pages from. */
  previous?: PreviousIndex;
}

/** A record file not checked yet, with the slug and projection its name gives. */
export interface PlannedRecord extends RecordKey, FileStat {}

/**
 * Records the threads check as they read them, then render: every record file of the site,
 * named after its slug and projection (a first build checks and renders each record from one read).
 */
interface UncheckedRecords {
  unchecked: PlannedRecord[];
  /** Called once every file is checked, before the index is done. */
  onChecked?: (checks: CheckedFiles) => void;
}

/** What the record threads are asked to do. */
export type RecordOutputsJob = OutputPlace & (CheckedRecords | UncheckedRecords);

/** What one record thread is given. */
export interface RecordThreadData extends Omit<OutputPlace, 'shardPages'> {
  /** This thread's garments, in the order the index asks for their pages: each garment's record files, with their size and time when planned or checked. */
  garments: PlannedRecord[][];
  /** Whether to check each record (JSON, schema, integrity) as it is read, and say what was found. */
  check: boolean;
  /** Holds 1 once a record cannot be rendered: the build will fail, so the threads only check from then on. */
  renderingStopped: SharedArrayBuffer;
}

/** What the threads and the index did; with unchecked records, `checks` holds each file's check. */
export interface RecordOutputsSummary {
  search: SearchIndexSummary;
  /** Records whose page and twins were written, in how many threads, and the seconds until the last thread finished. */
  pages: { records: number; seconds: number; threads: number };
  checks?: CheckedFiles;
}

/**
 * An unchecked record is invalid, or not the one its file's name says: the site cannot be made
 * this way. Every file was checked nonetheless (`checks`); not every page was written.
 */
export class UnrenderedRecordsError extends GarmentPressError {
  checks: CheckedFiles = { files: [], seconds: 0, renderable: false };
}

/** Each file's check, in the order they were made, and the seconds until the last file was checked. */
export interface CheckedFiles {
  files: FileCheck<SiteEntry>[];
  seconds: number;
  /** Whether every record is valid and the one its file's name says, so every page could be written. */
  renderable: boolean;
}

/** What a record thread says: each file's check (when asked to check), each record's search page, then how it went. */
export type RecordThreadMessage =
  | { type: 'checked'; check: FileCheck<SiteEntry> }
  | { type: 'page'; page: SearchRecord }
  | { type: 'done'; records: number }
  | { type: 'failed'; message: string };

/**
 * Each thread's old-generation heap limit. A thread holds one record at a time, yet V8 lets
 * garbage pile up towards its much larger default; ample for 100,000 entries.
 */
const THREAD_HEAP_MB = 768;

/**
 * Writes the page, JSON twin and Markdown twin of every rendered record, and its garment's page,
 * in one worker thread per core, each reading its share of the records once (and, for unchecked
 * records, checking each first); meanwhile this thread builds the search index from the pages
 * the threads send and, for unchanged garments, from the last index. A failure rejects with a
 * RecordFilesError or SearchIndexError once every thread has ended; an abort stops the threads.
 */
export async function writeRecordOutputs(
  job: RecordOutputsJob,
  onProgress: (indexed: number, total: number) => void = () => {},
  signal?: AbortSignal,
): Promise<RecordOutputsSummary> {
  const { siteDir, site, stylesheet, recordsDir, shardPages } = job;
  const checked = 'entries' in job ? undefined : new FileChecks(job.unchecked, job.onChecked);
  const index = 'entries' in job ? indexEntries(job.entries, job.renderedSlugs && new Set(job.renderedSlugs)) : undefined;
  const records: readonly RecordKey[] = 'unchecked' in job ? job.unchecked : index!.entries;
  const order = indexingOrder(records, shardPages)
    .flat()
    .filter((key) => !index || rendersGarment(index, key.slug));
  const planned = (key: RecordKey): PlannedRecord => {
    if ('unchecked' in job) return key as PlannedRecord;
    const checkedFile = job.checkedFiles.get(key.file);
    if (!checkedFile) throw new RecordFilesError(`pages: ${key.file} is to be rendered, but was not checked`);
    return { file: key.file, slug: key.slug, projection: key.projection, size: checkedFile.size, mtimeMs: checkedFile.mtimeMs };
  };
  const garments = [...Map.groupBy(order.map(planned), (key) => key.slug).values()];
  const threads = Math.max(1, Math.min(availableParallelism(), garments.length));
  const pages = new PageExchange();
  const started = performance.now();
  // The threads stop when asked to, and when anything here fails.
  const stop = new AbortController();
  const stopThreads = () => stop.abort();
  signal?.addEventListener('abort', stopThreads, { once: true });
  const renderingStopped = new SharedArrayBuffer(4);
  const unrendered = new UnrenderedRecordsError('pages: a record is invalid, or not the one its file is named after');
  const onChecked =
    checked &&
    ((check: FileCheck<SiteEntry>) => {
      if (!checked.add(check, (performance.now() - started) / 1000)) {
        Atomics.store(new Int32Array(renderingStopped), 0, 1);
        pages.fail(unrendered);
      }
    });
  const workers = Array.from({ length: garments.length > 0 ? threads : 0 }, (_, thread) =>
    runThread(
      {
        garments: garments.filter((_, position) => position % threads === thread),
        check: Boolean(checked),
        renderingStopped,
        siteDir,
        site,
        stylesheet,
        recordsDir,
      },
      pages,
      onChecked,
      stop.signal,
    ),
  );
  const written = Promise.all(workers).then((done) => ({
    records: done.reduce((sum, thread) => sum + thread, 0),
    seconds: (performance.now() - started) / 1000,
  }));
  // A thread's failure must reach the index's wait for its pages.
  written.catch((error: unknown) => pages.fail(error));
  try {
    const bundleDir = path.join(siteDir, SEARCH_BUNDLE_PATH);
    const take = (key: RecordKey) => pages.take(pagePath(key.slug, key.projection));
    const search = index
      ? await buildSearchIndex(index.entries, bundleDir, {
          previous: 'previous' in job ? job.previous : undefined,
          onProgress,
          shardPages,
          pageOf: (entry) => (rendersGarment(index, entry.slug) ? take(entry) : pageFromRecord(entry)),
        })
      : await buildSearchIndex(records, bundleDir, { onProgress, shardPages, pageOf: take });
    const { records: wrote, seconds } = await written;
    if (wrote !== order.length) throw new RecordFilesError(`pages: wrote ${wrote} records' pages and twins, expected ${order.length}`);
    return { search, pages: { records: wrote, seconds, threads: workers.length }, ...(checked ? { checks: checked.all() } : {}) };
  } catch (error) {
    if (error === unrendered && checked) {
      // The records are still checked to the end, so every problem in every file is reported.
      await written;
      unrendered.checks = checked.all();
    }
    // Settles only once every thread has ended, so nothing is written after the failure is known.
    stopThreads();
    await Promise.allSettled(workers);
    throw error;
  } finally {
    signal?.removeEventListener('abort', stopThreads);
  }
}

/** Runs one record thread to its end; resolves with the records it wrote. */
function runThread(
  data: RecordThreadData,
  pages: PageExchange,
  onChecked: ((check: FileCheck<SiteEntry>) => void) | undefined,
  signal?: AbortSignal,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./record-outputs-worker.ts', import.meta.url), {
      workerData: data,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    });
    // Stopped (the build failed elsewhere): settles only once the thread has ended, so nothing more is written.
    const stop = () => void worker.terminate();
    signal?.addEventListener('abort', stop, { once: true });
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', stop);
      done();
    };
    worker.on('message', (message: RecordThreadMessage) => {
      if (message.type === 'checked') onChecked?.(message.check);
      else if (message.type === 'page') pages.give(message.page.url, message.page);
      else if (message.type === 'done') settle(() => resolve(message.records));
      else settle(() => reject(new RecordFilesError(message.message)));
    });
    worker.on('error', (error) => settle(() => reject(new RecordFilesError(`a record thread failed: ${error.message}`, { cause: error }))));
    worker.on('exit', (code) =>
      settle(() => reject(new RecordFilesError(`a record thread stopped (exit code ${code}) before it finished`))),
    );
  });
}

/** The checks of unchecked records, as the threads send them. */
class FileChecks {
  #planned: Map<string, PlannedRecord>;
  #onAll: ((checks: CheckedFiles) => void) | undefined;
  #files: FileCheck<SiteEntry>[] = [];
  #seconds = 0;
  #renderable = true;

  constructor(planned: PlannedRecord[], onAll?: (checks: CheckedFiles) => void) {
    this.#planned = new Map(planned.map((record) => [record.file, record]));
    this.#onAll = onAll;
  }

  /** Keeps a file's check, made `seconds` into the work; false when its record cannot be rendered (invalid, or not the one its name says). */
  add(check: FileCheck<SiteEntry>, seconds: number): boolean {
    const planned = this.#planned.get(check.file)!;
    this.#files.push(check);
    this.#seconds = seconds;
    const renderable = check.record?.slug === planned.slug && check.record.projection === planned.projection;
    this.#renderable &&= renderable;
    if (this.#files.length === this.#planned.size) this.#onAll?.(this.all());
    return renderable;
  }

  all(): CheckedFiles {
    return { files: [...this.#files], seconds: this.#seconds, renderable: this.#renderable };
  }
}

/** Search pages passed from the threads that make them to the index that asks for them, in whichever order each comes. */
class PageExchange {
  #given = new Map<string, SearchRecord>();
  #waiting = new Map<string, { resolve: (page: SearchRecord) => void; reject: (error: unknown) => void }>();
  #failure: unknown;

  give(url: string, page: SearchRecord): void {
    const waiter = this.#waiting.get(url);
    if (waiter) {
      this.#waiting.delete(url);
      waiter.resolve(page);
    } else this.#given.set(url, page);
  }

  take(url: string): Promise<SearchRecord> {
    const page = this.#given.get(url);
    if (page) {
      this.#given.delete(url);
      return Promise.resolve(page);
    }
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => this.#waiting.set(url, { resolve, reject }));
  }

  fail(error: unknown): void {
    this.#failure = error;
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }
}
