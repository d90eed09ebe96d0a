import type { GarmentRecord } from '../record/index.ts';
import { t } from '../site/strings.ts';
import type { KeyFacts } from '../site/key-facts.ts';
import { keptRevisionRecord, latestRevisionRecord, type RevisionRecord } from './revision-records.ts';
import { changeSummary, comparableRecord, revisionChanges, type ComparableRecord, type RevisionChanges } from './record-changes.ts';

/**
 * Bytes on disk already, to be hard-linked (copied where the file system cannot link): a file of
 * the records folder (`file`, absolute), or a file of the site being written, written before (`sitePath`).
 */
export type FileLink = { file: string } | { sitePath: string };

/** One revision of a record as its history and pages say it. */
export interface RevisionView {
  /** 1 for the first revision published. */
  number: number;
  /** Its JSON as published then. */
  bytes: Uint8Array;
  /** A file holding these bytes already (the archive's, or the site's JSON twin), linked rather than written again. */
  linkTo?: FileLink;
  /** Its `record_revision` and `published_at`, as written; null when its JSON could not be read. */
  recordRevision: string | null;
  publishedAt: string | null;
  /** What changed since the revision before; null for the first, or when either could not be read. */
  changes: RevisionChanges | null;
  /** One line saying what changed. */
  summary: string;
}

/** What the history pages, the record page and the feeds know of a record's revisions. */
export interface RevisionsSummary {
  count: number;
  /** How many of them were read from the records folder's archive (the others: the record file's own). */
  kept: number;
  /** Each revision, oldest first, without its bytes and changes. */
  revisions: { number: number; recordRevision: string | null; publishedAt: string | null; summary: string }[];
}

/**
 * Every revision of a record, oldest first, from each one's JSON as published (see revisionHistory),
 * the last being `latest`, read already (with its key facts, `latestFacts`, when read too). A revision kept in the archive is read again here: one that is
 * not a record as this code reads it (edited by hand) is listed and linked, said not to be comparable.
 */
export function revisionViews(history: readonly Uint8Array[], latest: GarmentRecord, latestFacts?: KeyFacts): RevisionView[] {
  // Newest first: each kept revision shares with the one after it the parts both wrote alike.
  const records: (RevisionRecord | Error)[] = [];
  const last = history.length - 1;
  // The latest's JSON is scanned for its top-level values only when a kept revision is read against them.
  records[last] = last > 0 ? latestRevisionRecord(history[last]!, latest) : { record: latest, values: new Map() };
  for (let i = last - 1; i >= 0; i--) {
    const next = records[i + 1];
    try {
      records[i] = keptRevisionRecord(history[i]!, next instanceof Error ? undefined : next);
    } catch (error) {
      records[i] = error as Error;
    }
  }
  // Each revision read for comparing once, though it is compared with the one before and the one after.
  const comparables: ComparableRecord[] = [];
  const comparable = (i: number, record: GarmentRecord) =>
    (comparables[i] ??= comparableRecord(record, i === last ? latestFacts : undefined));
  return history.map((bytes, i) => {
    const read = records[i]!;
    const record = read instanceof Error ? read : read.record;
    const previous = i > 0 ? records[i - 1]! : null;
    const before = previous instanceof Error || previous === null ? previous : previous.record;
    let changes: RevisionChanges | null = null;
    let summary = t('revisions.summary.first');
    if (before) {
      try {
        if (before instanceof Error || record instanceof Error) throw before instanceof Error ? before : record;
        changes = revisionChanges(comparable(i - 1, before), comparable(i, record));
        summary = changeSummary(changes);
      } catch (error) {
        summary = t('revisions.unreadable', { reason: (error as Error).message });
      }
    }
    const readable = record instanceof Error ? null : record;
    return {
      number: i + 1,
      bytes,
      recordRevision: typeof readable?.record_revision === 'string' ? readable.record_revision : null,
      publishedAt: typeof readable?.published_at === 'string' ? readable.published_at : null,
      changes,
      summary,
    };
  });
}

/** The revisions without their bytes and changes: what a page or feed elsewhere says of them. */
export function revisionsSummary(views: readonly RevisionView[]): RevisionsSummary {
  return {
    count: views.length,
    kept: views.filter((view) => view.linkTo && 'file' in view.linkTo).length,
    revisions: views.map(({ number, recordRevision, publishedAt, summary }) => ({ number, recordRevision, publishedAt, summary })),
  };
}
