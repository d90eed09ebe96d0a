// The worker thread behind buildSearchIndexInWorker: builds the index and reports back by message.
import { parentPort, workerData } from 'node:worker_threads';
import type { SiteEntry } from '../site/site-index.ts';
import { buildSearchIndex, type PreviousIndex, type SearchIndexSummary } from './index-site.ts';

/** What the worker is given. */
export interface IndexWorkerData {
  entries: SiteEntry[];
  outputPath: string;
  previous?: PreviousIndex;
}

/** What the worker says: progress, then either the summary or the failure's message. */
export type IndexWorkerMessage =
  | { type: 'progress'; indexed: number; total: number }
  | { type: 'done'; summary: SearchIndexSummary }
  | { type: 'failed'; message: string };

if (parentPort) {
  const port = parentPort;
  const { entries, outputPath, previous } = workerData as IndexWorkerData;
  const say = (message: IndexWorkerMessage) => port.postMessage(message);
  try {
    const summary = await buildSearchIndex(entries, outputPath, { previous, onProgress: (indexed, total) => say({ type: 'progress', indexed, total }) });
    say({ type: 'done', summary });
  } catch (error) {
    say({ type: 'failed', message: (error as Error).message ?? String(error) });
  }
}
