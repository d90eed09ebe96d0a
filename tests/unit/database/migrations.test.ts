import { mkdtempSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  migratePostgres,
  openMigratedSqlite,
  openPostgresDatabase,
  type PostgresDatabase,
  SchemaTooNewError,
} from '../../../src/lib/database/index.ts';
import { freshPostgresDatabase } from '../../support/postgres.ts';

const STEPS = ['CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)', 'ALTER TABLE notes ADD COLUMN author TEXT'];

describe('SQLite migrations (user_version)', () => {
  const file = () => path.join(mkdtempSync(path.join(tmpdir(), 'migrations-')), 'store.db');

  it('applies each numbered step once, and later steps on a database made by earlier code', () => {
    const at = file();
    openMigratedSqlite(at, STEPS.slice(0, 1)).db.close();
    const { db } = openMigratedSqlite(at, STEPS);
    db.prepare("INSERT INTO notes (text, author) VALUES ('a', 'b')").run();
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(2);
    db.close();
    // Opening again applies nothing (a second ALTER TABLE would fail).
    openMigratedSqlite(at, STEPS).db.close();
  });

  it('leaves nothing applied when a step fails', () => {
    const at = file();
    expect(() => openMigratedSqlite(at, [...STEPS, 'CREATE TABLE broken ('])).toThrow();
    const db = new DatabaseSync(at);
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(0);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'notes'").get()).toBeUndefined();
    db.close();
  });

  it('refuses a database migrated by newer code, naming the file', () => {
    const at = file();
    openMigratedSqlite(at, STEPS).db.close();
    expect(() => openMigratedSqlite(at, STEPS.slice(0, 1))).toThrow(SchemaTooNewError);
    expect(() => openMigratedSqlite(at, STEPS.slice(0, 1))).toThrow(at);
  });
});

describe('PostgreSQL migrations (garment_press_migrations table)', () => {
  let database: PostgresDatabase;
  beforeAll(async () => {
    database = openPostgresDatabase(await freshPostgresDatabase());
  });
  afterAll(() => database.close());

  it('applies each store its own numbered steps once, even with instances starting together', async () => {
    await Promise.all([migratePostgres(database, 'notes', STEPS.slice(0, 1)), migratePostgres(database, 'notes', STEPS.slice(0, 1))]);
    await Promise.all([migratePostgres(database, 'notes', STEPS), migratePostgres(database, 'other', ['CREATE TABLE other (id INTEGER)'])]);
    await migratePostgres(database, 'notes', STEPS);
    await database.pool.query("INSERT INTO notes (id, text, author) VALUES (1, 'a', 'b')");
    const { rows } = await database.pool.query('SELECT store, version FROM garment_press_migrations ORDER BY store, version');
    expect(rows).toEqual([
      { store: 'notes', version: 1 },
      { store: 'notes', version: 2 },
      { store: 'other', version: 1 },
    ]);
  });

  it('leaves nothing applied when a step fails, and refuses newer schemas', async () => {
    await expect(migratePostgres(database, 'failing', ['CREATE TABLE failing (id INTEGER)', 'CREATE TABLE broken ('])).rejects.toThrow();
    const { rowCount } = await database.pool.query("SELECT 1 FROM pg_tables WHERE tablename = 'failing'");
    expect(rowCount).toBe(0);
    await expect(migratePostgres(database, 'notes', STEPS.slice(0, 1))).rejects.toThrow(SchemaTooNewError);
  });
});
