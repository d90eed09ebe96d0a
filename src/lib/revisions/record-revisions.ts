import type { GarmentRecord } from '../record/index.ts';
import type { KeyFacts } from '../site/key-facts.ts';
import { archivedRevisions } from './archive.ts';
import { revisionHistory } from './history.ts';
import { revisionViews, type RevisionView } from './revision-view.ts';

/**
 * A record's revisions, oldest first: those its records folder's archive kept, then the record
 * file's (`source`, its bytes), unless the last kept is it. Without a records folder, the record is its only revision.
 * `facts` are the record's key facts, when read already.
 */
export function recordRevisions(
  recordsDir: string | undefined,
  record: GarmentRecord,
  source: Uint8Array,
  facts?: KeyFacts,
): RevisionView[] {
  const archived = recordsDir ? archivedRevisions(recordsDir, record.slug, record.projection) : [];
  return revisionViews(revisionHistory(archived, source), record, facts);
}

/** The revisions with the record file's own (found by its bytes, `source`) as published now, `links` filled. */
export function asPublished(views: readonly RevisionView[], source: Uint8Array, published: Uint8Array): RevisionView[] {
  return views.map((view) => (view.bytes === source ? { ...view, bytes: published } : view));
}
