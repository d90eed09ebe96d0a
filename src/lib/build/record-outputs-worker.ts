// A record thread behind writeRecordOutputs: writes its garments' pages, and reads each of their records once for its page, its twins and its search page.
import { parentPort, workerData } from 'node:worker_threads';
import { indexingOrder } from '../search/search-shards.ts';
import { searchRecord } from '../search/search-record.ts';
import { indexEntries, readRecord, rendersGarment } from '../site/site-index.ts';
import { garmentPath } from '../site/urls.ts';
import { garmentFile, recordFiles, writeSiteFiles } from './record-files.ts';
import type { RecordThreadData, RecordThreadMessage } from './record-outputs.ts';

if (parentPort) {
  const port = parentPort;
  const say = (message: RecordThreadMessage) => port.postMessage(message);
  const { entries, renderedSlugs, siteDir, site, stylesheet, shardPages, thread, threads } = workerData as RecordThreadData;
  const index = indexEntries(entries, renderedSlugs && new Set(renderedSlugs));
  const options = { site, stylesheet };
  // Garments go in the order the index asks for their pages, every n-th to this thread, so all threads go through it together.
  const order = [...new Set(indexingOrder(index.entries, shardPages).flat().map((entry) => entry.slug))].filter((slug) => rendersGarment(index, slug));
  const mine = order.filter((_, position) => position % threads === thread).map((slug) => [slug, index.garments.get(slug)!] as const);
  let records = 0;
  let step = 'writing';
  let current = '';
  try {
    for (const [slug, garment] of mine) {
      current = `the page of ${garmentPath(slug)}`;
      step = 'rendering';
      const files = [garmentFile(slug, garment, options)];
      const pages = [];
      for (const entry of [garment.svc, garment.tech]) {
        if (!entry) continue;
        current = entry.file;
        step = 'reading';
        const record = readRecord(entry);
        step = 'rendering';
        files.push(...recordFiles(index, entry, record, options));
        pages.push(searchRecord(entry, record));
      }
      current = `the files of ${garmentPath(slug)}`;
      step = 'writing';
      writeSiteFiles(siteDir, files);
      for (const page of pages) say({ type: 'page', page });
      records += pages.length;
    }
    say({ type: 'done', records });
  } catch (error) {
    say({ type: 'failed', message: `pages: failed while ${step} ${current}: ${(error as Error).message ?? String(error)}` });
  }
}
