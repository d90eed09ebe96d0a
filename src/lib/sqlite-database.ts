import { DatabaseSync } from 'node:sqlite';

/** A SQLite database opened for durable work, and a way to run work in one transaction. */
export interface DurableDatabase {
  db: DatabaseSync;
  /** Runs `work` inside BEGIN IMMEDIATE … COMMIT, rolling back if it throws. */
  inTransaction: <T>(work: () => T) => T;
}

/**
 * Opens (creating if needed) a database in WAL mode with full sync and foreign keys, then runs
 * its schema. FULL syncs every commit, so what was committed survives power loss, not only a crash.
 */
export function openDurableDatabase(path: string, schema: string): DurableDatabase {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = FULL');
  db.exec('PRAGMA foreign_keys = ON');
  db.exec(schema);
  const inTransaction = <T>(work: () => T): T => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  };
  return { db, inTransaction };
}
