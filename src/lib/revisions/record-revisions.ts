import type { GarmentRecord } from '../record/index.ts';
import type { KeyFacts } from '../site/key-facts.ts';
import { readFileSync } from 'node:fs';
import { archivedRevisionFiles } from './archive.ts';
import { revisionHistory } from './history.ts';
import { revisionViews, type RevisionView } from './revision-view.ts';

/**
 * A record's revisions, oldest first: those its records folder's archive kept (each linked to its
 * file there), then the record file's (`source`, its bytes), unless the last kept is it. Without a
 * records folder, the record is its only revision. `facts` are the record's key facts, when read already.
 */
export function recordRevisions(
  recordsDir: string | undefined,
  record: GarmentRecord,
  source: Uint8Array,
  facts?: KeyFacts,
): RevisionView[] {
  const files = recordsDir ? archivedRevisionFiles(recordsDir, record.slug, record.projection) : [];
  const views = revisionViews(
    revisionHistory(
      files.map((file) => readFileSync(file)),
      source,
    ),
    record,
    facts,
  );
  return views.map((view, i) => (i < files.length ? { ...view, linkTo: { file: files[i]! } } : view));
}

/**
 * The revisions with the record file's own (found by its bytes, `source`) as published now, `links`
 * filled: the bytes of its JSON twin, at `twinPath` on the site, to which it is linked.
 */
export function asPublished(views: readonly RevisionView[], source: Uint8Array, published: Uint8Array, twinPath: string): RevisionView[] {
  return views.map((view) => (view.bytes === source ? { ...view, bytes: published, linkTo: { sitePath: twinPath } } : view));
}
