import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { isDiskFull } from './disk-space.ts';
import { GarmentPressError } from './errors.ts';

/** A database that cannot be used as it is: missing, damaged, not a database, or on a full disk. The message names the file. */
export class DatabaseFileError extends GarmentPressError {}

/** A SQLite database opened for durable work, and a way to run work in one transaction. */
export interface DurableDatabase {
  db: DatabaseSync;
  /** Runs `work` inside BEGIN IMMEDIATE … COMMIT, rolling back if it throws. */
  inTransaction: <T>(work: () => T) => T;
  /**
   * Runs `work` with commits that do not wait for the disk (synchronous NORMAL): for a write whose
   * loss in a power failure only repeats work, such as a task's progress. The next synced commit
   * makes it durable too, since the WAL keeps commits in order; a crash of the process loses nothing.
   */
  unsynced: <T>(work: () => T) => T;
}

/** What a health check found of one database: `ok`, or what is wrong. Anyone may read it, so it names no path. */
export interface DatabaseHealth {
  /** The database: its file's name (or, for a server database, its name). */
  database: string;
  state: 'ok' | 'missing' | 'damaged' | 'disk_full';
  /** What is wrong and what to do; absent when ok. */
  message?: string;
}

/**
 * Opens (creating if needed) a database in WAL mode with full sync and foreign keys, checks it
 * with SQLite's quick_check, then runs its schema. FULL syncs every commit, so what was committed
 * survives power loss, not only a crash. A damaged file, or one that is no database, is refused
 * with a DatabaseFileError naming it.
 */
export function openDurableDatabase(path: string, schema: string): DurableDatabase {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path);
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    const problems = quickCheck(db);
    if (problems.length > 0) throw new DatabaseFileError(damagedMessage(path, problems.join('; ')));
    db.exec(schema);
  } catch (error) {
    db?.close();
    throw error instanceof DatabaseFileError ? error : new DatabaseFileError(describeFailure(path, error), { cause: error });
  }
  const opened = db;
  const inTransaction = <T>(work: () => T): T => {
    opened.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      opened.exec('COMMIT');
      return result;
    } catch (error) {
      // A failed COMMIT (a full disk) may have rolled back already; rolling back again would hide why.
      if (opened.isTransaction) opened.exec('ROLLBACK');
      throw error;
    }
  };
  const unsynced = <T>(work: () => T): T => {
    opened.exec('PRAGMA synchronous = NORMAL');
    try {
      return work();
    } finally {
      opened.exec('PRAGMA synchronous = FULL');
    }
  };
  return { db: opened, inTransaction, unsynced };
}

/**
 * Refuses to start on a database file that is missing while `because` says its data exists, rather
 * than letting SQLite make an empty one in its place (every key, organization and owner gone).
 */
export function requireDatabaseFile(path: string, because: string): void {
  if (statSync(path, { throwIfNoEntry: false }) !== undefined) return;
  throw new DatabaseFileError(
    `${path} is missing, though ${because}; restore it from a backup (starting with an empty one would lose what it held)`,
  );
}

/**
 * Watches an open database's file for a health check, cheaply: it is still the file opened (not
 * deleted or replaced under the running service), and its header and schema still read, on a
 * connection of the check's own. The full quick_check runs at start.
 */
export function watchDatabaseFile(path: string): () => DatabaseHealth {
  const openedInode = statSync(path).ino;
  const database = basename(path);
  return () => {
    const now = statSync(path, { throwIfNoEntry: false });
    if (now === undefined || now.ino !== openedInode) {
      return {
        database,
        state: 'missing',
        message: `${database} was ${now === undefined ? 'deleted' : 'replaced'} while the service was running: what it writes now is lost when it stops; stop it and restore the file from a backup`,
      };
    }
    let db: DatabaseSync | undefined;
    try {
      db = new DatabaseSync(path, { readOnly: true });
      db.prepare('SELECT count(*) FROM sqlite_schema').get();
      return { database, state: 'ok' };
    } catch (error) {
      return { database, state: isDiskFull(error) ? 'disk_full' : 'damaged', message: describeFailure(database, error) };
    } finally {
      db?.close();
    }
  };
}

/** quick_check's findings: none when the database is sound. */
function quickCheck(db: DatabaseSync): string[] {
  const rows = db.prepare('PRAGMA quick_check(5)').all() as Array<{ quick_check: string }>;
  return rows.map((row) => row.quick_check).filter((finding) => finding !== 'ok');
}

function damagedMessage(path: string, finding: string): string {
  return `${path} is damaged (${finding}); restore it from a backup, or move it aside to start with an empty one`;
}

/** A SQLite failure said with the file it concerns and what to do. */
function describeFailure(path: string, error: unknown): string {
  const { errcode, message } = error as { errcode?: number; message?: string };
  const primary = (errcode ?? 0) & 0xff;
  // SQLITE_NOTADB, SQLITE_CORRUPT
  if (primary === 26) return `${path} is not a SQLite database, or its header is damaged (${message}); restore it from a backup`;
  if (primary === 11) return damagedMessage(path, message ?? 'malformed');
  if (isDiskFull(error)) return `${path}: the disk is full (${message}); free some space`;
  return `${path}: ${message ?? String(error)}`;
}
