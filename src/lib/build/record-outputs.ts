import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { GarmentPressError } from '../errors.ts';
import { buildSearchIndex, type PreviousIndex, type SearchIndexSummary } from '../search/index-site.ts';
import { SEARCH_BUNDLE_PATH } from '../search/search-keys.ts';
import type { SearchRecord } from '../search/search-record.ts';
import { indexEntries, rendersGarment, type SiteEntry } from '../site/site-index.ts';
import { pagePath } from '../site/urls.ts';

/** A record's page or twins could not be made or written; the site being built must not be published. */
export class RecordFilesError extends GarmentPressError {}

/** What the record threads are asked to do. */
export interface RecordOutputsJob {
  /** Every record of the site. */
  entries: SiteEntry[];
  /** The garments rendered by this build (their pages and twins are written); null for all. */
  renderedSlugs: string[] | null;
  /** The site folder being built: pages and twins go under `garments/`, the index into `pagefind/`. */
  siteDir: string;
  /** The site's absolute address, for `links`. */
  site: string;
  /** The site path of the stylesheet every page links. */
  stylesheet: string;
  /** The last build's index, to take unchanged garments' pages from. */
  previous?: PreviousIndex;
  /** Pages per search index shard aimed at (default SHARD_PAGES). */
  shardPages?: number;
}

/** What one record thread is given: the job, and which of the rendered records are its own. */
export interface RecordThreadData extends Omit<RecordOutputsJob, 'previous'> {
  thread: number;
  threads: number;
}

/** What the threads and the index did. */
export interface RecordOutputsSummary {
  search: SearchIndexSummary;
  /** Records whose page and twins were written, in how many threads, and the seconds until the last thread finished. */
  pages: { records: number; seconds: number; threads: number };
}

/** What a record thread says: each record's search page, then how it went. */
export type RecordThreadMessage =
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
 * in one worker thread per core, each reading its share of the records once; meanwhile this thread builds the search index
 * from the pages the threads send and, for unchanged garments, from the last index. A failure
 * rejects with a RecordFilesError or SearchIndexError once every thread has ended; an abort
 * stops the threads.
 */
export async function writeRecordOutputs(
  job: RecordOutputsJob,
  onProgress: (indexed: number, total: number) => void = () => {},
  signal?: AbortSignal,
): Promise<RecordOutputsSummary> {
  const { previous, ...shared } = job;
  const index = indexEntries(job.entries, job.renderedSlugs && new Set(job.renderedSlugs));
  const rendered = index.entries.filter((entry) => rendersGarment(index, entry.slug)).length;
  const threads = Math.max(1, Math.min(availableParallelism(), index.renderedSlugs?.size ?? index.garments.size));
  const pages = new PageExchange();
  const started = performance.now();
  // The threads stop when asked to, and when anything here fails.
  const stop = new AbortController();
  const stopThreads = () => stop.abort();
  signal?.addEventListener('abort', stopThreads, { once: true });
  const workers = Array.from({ length: rendered > 0 ? threads : 0 }, (_, thread) => runThread({ ...shared, thread, threads }, pages, stop.signal));
  const written = Promise.all(workers).then((done) => ({ records: done.reduce((sum, thread) => sum + thread, 0), seconds: (performance.now() - started) / 1000 }));
  // A thread's failure must reach the index's wait for its pages.
  written.catch((error: unknown) => pages.fail(error));
  try {
    const search = await buildSearchIndex(index.entries, path.join(job.siteDir, SEARCH_BUNDLE_PATH), {
      previous,
      onProgress,
      shardPages: job.shardPages,
      pageOf: (entry) => (rendersGarment(index, entry.slug) ? pages.take(pagePath(entry.slug, entry.projection)) : undefined),
    });
    const { records, seconds } = await written;
    if (records !== rendered) throw new RecordFilesError(`pages: wrote ${records} records' pages and twins, expected ${rendered}`);
    return { search, pages: { records, seconds, threads: workers.length } };
  } catch (error) {
    // Settles only once every thread has ended, so nothing is written after the failure is known.
    stopThreads();
    await Promise.allSettled(workers);
    throw error;
  } finally {
    signal?.removeEventListener('abort', stopThreads);
  }
}

/** Runs one record thread to its end; resolves with the records it wrote. */
function runThread(data: RecordThreadData, pages: PageExchange, signal?: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./record-outputs-worker.ts', import.meta.url), { workerData: data, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    // Stopped (the build failed elsewhere): settles only once the thread has ended, so nothing more is written.
    const stop = () => void worker.terminate();
    signal?.addEventListener('abort', stop, { once: true });
    let settled = false;
    const settle = (done: () => void) => {
      if (!settled) (settled = true), signal?.removeEventListener('abort', stop), done();
    };
    worker.on('message', (message: RecordThreadMessage) => {
      if (message.type === 'page') pages.give(message.page.url, message.page);
      else if (message.type === 'done') settle(() => resolve(message.records));
      else settle(() => reject(new RecordFilesError(message.message)));
    });
    worker.on('error', (error) => settle(() => reject(new RecordFilesError(`a record thread failed: ${error.message}`, { cause: error }))));
    worker.on('exit', (code) => settle(() => reject(new RecordFilesError(`a record thread stopped (exit code ${code}) before it finished`))));
  });
}

/** Search pages passed from the threads that make them to the index that asks for them, in whichever order each comes. */
class PageExchange {
  #given = new Map<string, SearchRecord>();
  #waiting = new Map<string, { resolve: (page: SearchRecord) => void; reject: (error: unknown) => void }>();
  #failure: unknown;

  give(url: string, page: SearchRecord): void {
    const waiter = this.#waiting.get(url);
    if (waiter) this.#waiting.delete(url), waiter.resolve(page);
    else this.#given.set(url, page);
  }

  take(url: string): Promise<SearchRecord> {
    const page = this.#given.get(url);
    if (page) return this.#given.delete(url), Promise.resolve(page);
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => this.#waiting.set(url, { resolve, reject }));
  }

  fail(error: unknown): void {
    this.#failure = error;
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }
}
