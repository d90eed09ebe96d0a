// A record thread behind writeRecordOutputs: reads each of its garments' records once (checking it first when asked) for its page, its twins and its search page.
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { checkFileBytes, recordFromBytes, type GarmentRecord, unreadableFileCheck } from '../record/index.ts';
import { searchRecord } from '../search/index/search-record.ts';
import { closeBidiInRecord } from '../site/bidi-closed.ts';
import { keyFacts, type KeyFacts } from '../site/key-facts.ts';
import { siteEntryOf, type GarmentEntries, type SiteEntry } from '../site/site-index.ts';
import { garmentPath } from '../site/urls.ts';
import { garmentFeedFiles } from '../revisions/feeds.ts';
import { recordRevisions } from '../revisions/record-revisions.ts';
import { revisionsSummary, type RevisionView } from '../revisions/revision-view.ts';
import { garmentFile, recordFiles, writeSiteFiles } from './record-files.ts';
import type { PlannedRecord, RecordThreadData, RecordThreadMessage } from './record-outputs.ts';
import { errorMessage } from '../errors.ts';

/**
 * A record file's bytes, when it still has the size and time it was planned (or checked) with: a
 * file edited since would be published unchecked, or not as the build state says it was.
 */
function readAsPlanned({ file, size, mtimeMs }: PlannedRecord): Buffer | Error {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    return error as Error;
  }
  try {
    const now = fstatSync(fd);
    if (now.size !== size || now.mtimeMs !== mtimeMs) throw new Error('the file changed after the build first looked at it: build again');
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

if (parentPort) {
  const port = parentPort;
  const say = (message: RecordThreadMessage) => port.postMessage(message);
  const { garments, check, renderingStopped, siteDir, site, stylesheet, recordsDir } = workerData as RecordThreadData;
  const stopped = new Int32Array(renderingStopped);
  const options = { site, stylesheet, builtOn: new Date().toISOString().slice(0, 10) };
  let records = 0;
  let step = 'writing';
  let current = '';
  try {
    for (const keys of garments) {
      const slug = keys[0]!.slug;
      const read: [SiteEntry, GarmentRecord, Buffer, RevisionView[], KeyFacts][] = [];
      for (const key of keys) {
        current = key.file;
        step = 'reading';
        const bytes = readAsPlanned(key);
        if (bytes instanceof Error) {
          if (!check) throw bytes;
          say({ type: 'checked', check: unreadableFileCheck(key, bytes) });
          continue;
        }
        // A record's revisions, read once for its entry and its revision pages; its key facts, read
        // once: its entry's card, its garment's page, its own page and its search page show them.
        let revisions: RevisionView[] = [];
        let facts: KeyFacts | undefined;
        const entryOf = (record: GarmentRecord, file: string) => {
          closeBidiInRecord(record, bytes);
          facts = keyFacts(record);
          revisions = recordRevisions(recordsDir, record, bytes, facts);
          return siteEntryOf(record, file, revisionsSummary(revisions), facts);
        };
        const checked = check ? checkFileBytes(key, bytes, ({ file, record }) => entryOf(record, file)) : undefined;
        if (checked) say({ type: 'checked', check: checked.check });
        const record = checked ? checked.record : recordFromBytes(bytes);
        const entry = checked ? checked.check.record?.summary : entryOf(record!, key.file);
        // Rendered only when every record is valid and is the one its file's name says.
        if (record && facts && entry?.slug === key.slug && entry.projection === key.projection)
          read.push([entry, record, bytes, revisions, facts]);
      }
      if (read.length < keys.length || Atomics.load(stopped, 0) === 1) continue;
      current = `the page of ${garmentPath(slug)}`;
      step = 'rendering';
      const garment: GarmentEntries = Object.fromEntries(read.map(([entry]) => [entry.projection, entry]));
      const facts = read.map(([, , , , recordFacts]) => recordFacts);
      const files = [garmentFile(slug, garment, facts, options), ...garmentFeedFiles(slug, Object.values(garment), site)];
      const pages = [];
      for (const [i, [entry, record, bytes, revisions]] of read.entries()) {
        current = entry.file;
        files.push(...recordFiles(garment, entry, record, bytes, options, facts[i], revisions));
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
    say({ type: 'failed', message: `pages: failed while ${step} ${current}: ${errorMessage(error)}` });
  }
}
