import { closeSync, fsyncSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { link, mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { GarmentPressError } from '../errors.ts';
import { REVISIONS_FOLDER, type FileCheck, type Projection } from '../record/index.ts';
import type { SiteEntry } from '../site/site-index.ts';
import { jsonPath } from '../site/urls.ts';
import { sameRecord } from './history.ts';

/** The archive of a records folder holds a revision file that is not one of 1.json, 2.json… in order. */
export class RevisionArchiveError extends GarmentPressError {}

/** The folder of a record's earlier revisions in a records folder: `.revisions/<slug>.<projection>/`, holding `1.json`, `2.json`… */
export function revisionsFolder(recordsDir: string, slug: string, projection: Projection): string {
  return path.join(recordsDir, REVISIONS_FOLDER, `${slug}.${projection}`);
}

/**
 * The files of the revisions a record replaced, oldest first. Read synchronously: the record
 * threads call it beside the record they render. A gap in the numbering is an error naming the
 * folder, since the history shown would be silently wrong.
 */
export function archivedRevisionFiles(recordsDir: string, slug: string, projection: Projection): string[] {
  const folder = revisionsFolder(recordsDir, slug, projection);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const numbers = names
    .flatMap((name) => {
      const number = /^([1-9]\d*)\.json$/.exec(name)?.[1];
      return number ? [Number(number)] : [];
    })
    .sort((a, b) => a - b);
  numbers.forEach((number, i) => {
    if (number !== i + 1) throw new RevisionArchiveError(`${folder}: revision ${i + 1} is missing (found ${number}.json next)`);
  });
  return numbers.map((number) => path.join(folder, `${number}.json`));
}

/**
 * Whether a record's archive holds as many revisions as when its entry was made: a revision added
 * to it or taken from it (by a pull, by hand) means its history must be read again, though the
 * record file did not change.
 */
export function keptHistoryHolds(recordsDir: string, entry: SiteEntry | undefined): boolean {
  return !entry || archivedRevisionFiles(recordsDir, entry.slug, entry.projection).length === entry.revisions.kept;
}

/** The revisions a record replaced, oldest first, each the bytes its JSON twin had then (see archivedRevisionFiles). */
export function archivedRevisions(recordsDir: string, slug: string, projection: Projection): Buffer[] {
  return archivedRevisionFiles(recordsDir, slug, projection).map((file) => readFileSync(file));
}

/**
 * Keeps `bytes` as the record's next revision and returns its number. The file is written
 * beside its place under a temporary name, flushed, then linked into place, which fails rather
 * than replace a revision kept already; the folder is flushed so the name survives a crash.
 */
export async function keepRevision(recordsDir: string, slug: string, projection: Projection, bytes: Uint8Array): Promise<number> {
  const folder = revisionsFolder(recordsDir, slug, projection);
  await mkdir(folder, { recursive: true });
  const number = archivedRevisions(recordsDir, slug, projection).length + 1;
  const temporary = path.join(folder, `.${number}.json.${process.pid}.tmp`);
  const file = await open(temporary, 'w');
  try {
    await file.writeFile(bytes);
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await link(temporary, path.join(folder, `${number}.json`));
  } finally {
    await rm(temporary, { force: true });
  }
  const folderHandle = openSync(folder, 'r');
  try {
    fsyncSync(folderHandle);
  } finally {
    closeSync(folderHandle);
  }
  return number;
}

/** Where a build finds what it is about to replace. */
export interface ReplacedRecords {
  recordsDir: string;
  /** The site the last build left: its JSON twins are the bytes published so far. */
  siteDir: string;
  /** The last build's file checks, their files relative to the records folder. */
  checks: readonly FileCheck<SiteEntry>[];
}

/**
 * Keeps, in the archive, the published JSON of every record whose file changed since the last
 * build (by size or time, then by its bytes but `links`), so a new revision never silently
 * replaces one readers have seen. Idempotent: a revision already kept (a build that failed
 * after keeping it) is not kept twice. Returns the garments that got a revision.
 */
export async function archiveReplacedRecords({ recordsDir, siteDir, checks }: ReplacedRecords): Promise<Set<string>> {
  const archived = new Set<string>();
  for (const { file, size, mtimeMs, record } of checks) {
    if (!record) continue;
    const now = await stat(path.resolve(recordsDir, file)).catch(() => undefined);
    if (!now || (now.size === size && now.mtimeMs === mtimeMs)) continue;
    const published = await readFile(path.join(siteDir, ...jsonPath(record.slug, record.projection).split('/'))).catch(() => undefined);
    if (!published) continue;
    const current = await readFile(path.resolve(recordsDir, file));
    if (sameRecord(current, published)) continue;
    const kept = archivedRevisions(recordsDir, record.slug, record.projection).at(-1);
    if (kept && sameRecord(kept, published)) continue;
    await keepRevision(recordsDir, record.slug, record.projection, published);
    archived.add(record.slug);
  }
  return archived;
}
