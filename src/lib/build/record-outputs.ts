import { Worker } from 'node:worker_threads';
import { GarmentPressError } from '../errors.ts';
import { SearchIndexError, type PreviousIndex, type SearchIndexSummary } from '../search/index-site.ts';
import type { SiteEntry } from '../site/site-index.ts';

/** A record's twins could not be written; the site being built must not be published. */
export class TwinsError extends GarmentPressError {}

/** What the record-outputs thread is asked to do. */
export interface RecordOutputsJob {
  /** Every record of the site. */
  entries: SiteEntry[];
  /** The garments rendered by this build (their twins are written); null for all. */
  renderedSlugs: string[] | null;
  /** The site folder being built: twins go under `garments/`, the index into `pagefind/`. */
  siteDir: string;
  /** The site's absolute address, for `links`. */
  site: string;
  /** The last build's index, to take unchanged garments' pages from. */
  previous?: PreviousIndex;
}

/** What the thread did. */
export interface RecordOutputsSummary {
  search: SearchIndexSummary;
  /** Twins written, and the seconds spent making them (their writing overlaps other work). */
  twins: { records: number; seconds: number };
}

/** What the thread says: progress, then either its summary or the failure. */
export type RecordOutputsMessage =
  | { type: 'progress'; indexed: number; total: number }
  | { type: 'done'; summary: RecordOutputsSummary }
  | { type: 'failed'; name: string; message: string };

/**
 * The thread's old-generation heap limit. It holds a few hundred records' output at a time, yet
 * V8 lets garbage pile up towards its much larger default: at 2,000 records this cut the build
 * process's peak memory by about 200 MiB at no cost in time. Ample for 100,000 entries.
 */
const THREAD_HEAP_MB = 1024;

const errorClasses: Record<string, new (message: string) => GarmentPressError> = { SearchIndexError, TwinsError };

/**
 * Writes the JSON and Markdown twins of every rendered record and the site's search index, from
 * one read of each record, in a worker thread: the work goes on beside the main thread, where
 * Astro renders the pages. A failure rejects with the thread's SearchIndexError or TwinsError;
 * an abort stops the thread.
 */
export function writeRecordOutputs(
  job: RecordOutputsJob,
  onProgress: (indexed: number, total: number) => void = () => {},
  signal?: AbortSignal,
): Promise<RecordOutputsSummary> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./record-outputs-worker.ts', import.meta.url), { workerData: job, resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    // Stopped (the build failed elsewhere): settles only once the thread has ended, so nothing more is written.
    signal?.addEventListener('abort', () => void worker.terminate(), { once: true });
    let settled = false;
    const settle = (done: () => void) => {
      if (!settled) (settled = true), done();
    };
    worker.on('message', (message: RecordOutputsMessage) => {
      if (message.type === 'progress') onProgress(message.indexed, message.total);
      else if (message.type === 'done') settle(() => resolve(message.summary));
      else settle(() => reject(new (errorClasses[message.name] ?? TwinsError)(message.message)));
    });
    worker.on('error', (error) => settle(() => reject(new TwinsError(`the record-outputs thread failed: ${error.message}`, { cause: error }))));
    worker.on('exit', (code) => settle(() => reject(new TwinsError(`the record-outputs thread stopped (exit code ${code}) before it finished`))));
  });
}
