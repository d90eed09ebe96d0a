import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { DiskFullError, isDiskFull } from '../disk-space.ts';
import { listRecordFiles, namedRecord, recordFileName } from '../record/index.ts';
import { resourceIdOf } from './tasks.ts';

/** Where a record goes: the file to write, or why no file can take it. */
export type Placement = { ok: true; file: string } | { ok: false; message: string };

/** A view of which file publishes which (slug, projection), kept current as a batch writes. */
export interface RecordsFolder {
  /**
   * Chooses the file for a record: the one already publishing its (slug, projection), else
   * `<slug>.<projection>.json` when that name is free. Refuses when two files already publish it,
   * or the name is taken by something else, naming every file involved.
   */
  place(slug: string, projection: string): Promise<Placement>;
  /** Notes that `file` now publishes (slug, projection). */
  claim(file: string, slug: string, projection: string): void;
  /** The slugs of every record file listed. */
  slugs(): string[];
}

/**
 * Lists the record files and which (slug, projection) each publishes: a file named
 * `<slug>.<projection>.json` by its name (reading 100,000 records took minutes), any other by
 * reading it, tolerating files that are not records. The file a record is placed in is read
 * before it is chosen, so a name that does not say what its file holds is never written over.
 */
export async function readRecordsFolder(recordsDir: string): Promise<RecordsFolder> {
  const owners = new Map<string, string[]>();
  /** What each file holds: from its name until read (`read`), then from its content (null: no record). */
  const keyOfFile = new Map<string, { key: string | null; read: boolean }>();
  const slugs = new Set<string>();
  for (const file of await listRecordFiles([recordsDir])) {
    const named = namedRecord(file);
    const key = named ?? (await readRecordKey(file));
    keyOfFile.set(file, { key: key === null ? null : resourceIdOf(key.slug, key.projection), read: named === undefined });
    if (key === null) continue;
    slugs.add(key.slug);
    const resourceId = resourceIdOf(key.slug, key.projection);
    owners.set(resourceId, [...(owners.get(resourceId) ?? []), file]);
  }
  /** What `file` holds, read from it when only its name said so far. */
  const holding = async (file: string): Promise<string | null | undefined> => {
    const known = keyOfFile.get(file);
    if (known === undefined || known.read) return known?.key;
    const key = await readRecordKey(file);
    const read = { key: key === null ? null : resourceIdOf(key.slug, key.projection), read: true };
    keyOfFile.set(file, read);
    return read.key;
  };
  return {
    slugs: () => [...slugs],
    async place(slug, projection) {
      const key = resourceIdOf(slug, projection);
      const current = owners.get(key) ?? [];
      if (current.length > 1) {
        return {
          ok: false,
          message: `${current.join(', ')}: each already publishes ${key}; remove all but one of them, then publish again`,
        };
      }
      const file = current[0] ?? path.join(recordsDir, recordFileName(slug, projection));
      const holder = await holding(file);
      if (holder === undefined || holder === key) return { ok: true, file };
      const holds = holder === null ? 'something that is not a readable record' : holder;
      return {
        ok: false,
        message: `${file}: already holds ${holds}, so ${key} cannot be written there; rename that file, then publish again`,
      };
    },
    claim(file, slug, projection) {
      slugs.add(slug);
      const key = resourceIdOf(slug, projection);
      keyOfFile.set(file, { key, read: true });
      if (!(owners.get(key) ?? []).includes(file)) owners.set(key, [...(owners.get(key) ?? []), file]);
    },
  };
}

/**
 * The slugs of the garments in a records folder, read from file names where they follow
 * `<slug>.<projection>.json` and from the record inside otherwise: quick on a folder of 100,000 files.
 */
export async function readGarmentSlugs(recordsDir: string): Promise<string[]> {
  const slugs = new Set<string>();
  for (const file of await listRecordFiles([recordsDir])) {
    const slug = namedRecord(file)?.slug ?? (await readRecordKey(file))?.slug;
    if (slug !== undefined) slugs.add(slug);
  }
  return [...slugs];
}

/** Returns a file's text, or null when it does not exist. */
export async function readIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Raised by replaceFile when `mayWrite` says no at the last moment: the file was left as it was. */
export class WriteWithdrawnError extends Error {}

/**
 * Writes a file so readers see the old text or the new, never part of one: a synced temporary
 * file in the same folder, renamed over the target. `null` removes the file. `mayWrite` is asked
 * last, just before the file changes (the build lease, which a stopped builder may have lost).
 */
export async function replaceFile(file: string, text: string | null, mayWrite: () => boolean = () => true): Promise<void> {
  const withdrawn = () => new WriteWithdrawnError(`${file}: not written: this instance no longer holds the build lease`);
  if (text === null) {
    if (!mayWrite()) throw withdrawn();
    await rm(file, { force: true });
    return;
  }
  // Not `.json`, so a build listing the folder meanwhile never picks it up.
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (!mayWrite()) throw withdrawn();
    await rename(temporary, file);
  } catch (error) {
    // Nothing half-written stays behind, a full disk least of all.
    await rm(temporary, { force: true });
    if (isDiskFull(error)) throw new DiskFullError(`${file}: the disk is full, so the record could not be written`, { cause: error });
    throw error;
  }
}

async function readRecordKey(file: string): Promise<{ slug: string; projection: string } | null> {
  try {
    const value = JSON.parse((await readFile(file, 'utf8')).replace(/^\uFEFF/, '')) as { slug?: unknown; projection?: unknown };
    return typeof value.slug === 'string' && typeof value.projection === 'string'
      ? { slug: value.slug, projection: value.projection }
      : null;
  } catch {
    return null;
  }
}

/**
 * Renames a broken record file so builds no longer read it (they read `*.json` only): `<file>.broken`,
 * or `<file>.broken-<n>` when that name is taken. Returns the new path.
 * @example await setAside('records/zz.svc.json') → 'records/zz.svc.json.broken'
 */
export async function setAside(file: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const target = attempt === 1 ? `${file}.broken` : `${file}.broken-${attempt}`;
    try {
      // link then unlink never replaces a file already there, as rename would.
      await link(file, target);
      await rm(file);
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
