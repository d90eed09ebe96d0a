// The worker thread behind writeRecordOutputs: reads each rendered record once for its twins and its search page.
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { buildSearchIndex } from '../search/index-site.ts';
import { SEARCH_BUNDLE_PATH } from '../search/search-keys.ts';
import { indexEntries, rendersGarment } from '../site/site-index.ts';
import { TwinsError, type RecordOutputsJob, type RecordOutputsMessage } from './record-outputs.ts';
import { twinFiles, writeTwinFiles } from './twins.ts';

if (parentPort) {
  const port = parentPort;
  const say = (message: RecordOutputsMessage) => port.postMessage(message);
  const { entries, renderedSlugs, siteDir, site, previous } = workerData as RecordOutputsJob;
  const index = indexEntries(entries, renderedSlugs && new Set(renderedSlugs));
  const twins = { records: 0, seconds: 0 };
  try {
    const search = await buildSearchIndex(entries, path.join(siteDir, SEARCH_BUNDLE_PATH), {
      previous,
      onProgress: (indexed, total) => say({ type: 'progress', indexed, total }),
      eachRecord: async (entry, record) => {
        if (!rendersGarment(index, entry.slug)) return;
        const started = performance.now();
        const files = twinFiles(index, entry, record, site);
        twins.seconds += (performance.now() - started) / 1000;
        await writeTwinFiles(siteDir, entry.slug, files).catch((error: Error) => {
          throw new TwinsError(`twins: could not write the twins of ${entry.file}: ${error.message}`, { cause: error });
        });
        twins.records++;
      },
    });
    const expected = entries.filter((entry) => rendersGarment(index, entry.slug)).length;
    if (twins.records !== expected) throw new TwinsError(`twins: wrote the twins of ${twins.records} records, expected ${expected}`);
    say({ type: 'done', summary: { search, twins } });
  } catch (error) {
    say({ type: 'failed', name: (error as Error).name, message: (error as Error).message ?? String(error) });
  }
}
