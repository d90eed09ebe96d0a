import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openDurableDatabase } from '../../../src/lib/sqlite-database.ts';

const synchronous = (db: DatabaseSync) => (db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous;
const FULL = 2;
const NORMAL = 1;

describe('openDurableDatabase', () => {
  const open = () =>
    openDurableDatabase(path.join(mkdtempSync(path.join(tmpdir(), 'durable-')), 'store.db'), 'CREATE TABLE IF NOT EXISTS t (v TEXT)');

  it('syncs every commit, but lets unsynced work commit without waiting for the disk, then syncs again, even when the work throws', () => {
    const { db, unsynced } = open();
    expect(synchronous(db)).toBe(FULL);
    expect(unsynced(() => synchronous(db))).toBe(NORMAL);
    expect(synchronous(db)).toBe(FULL);
    expect(() =>
      unsynced(() => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(synchronous(db)).toBe(FULL);
    db.close();
  });

  it('keeps what unsynced work committed, for the next connection to read', () => {
    const { db, unsynced } = open();
    unsynced(() => db.prepare("INSERT INTO t VALUES ('stage')").run());
    const again = new DatabaseSync(db.location()!);
    expect(again.prepare('SELECT v FROM t').all()).toEqual([{ v: 'stage' }]);
    again.close();
    db.close();
  });
});
