import type { DatabaseSync } from 'node:sqlite';
import type { PoolClient } from 'pg';
import { GarmentPressError } from '../errors.ts';
import type { PostgresDatabase } from './postgres.ts';

/** Thrown when a database was migrated by newer code than this: starting on it could lose data. */
export class SchemaTooNewError extends GarmentPressError {}

/** One numbered step of a SQLite store's schema: SQL, or work that looks at the database first. */
export type SqliteMigration = string | ((db: DatabaseSync) => void);

/** One numbered step of a PostgreSQL store's schema: SQL, or work that looks at the database first. */
export type PostgresMigration = string | ((client: PoolClient) => Promise<void>);

/**
 * Brings a SQLite store's schema up to date in one transaction. Migration N is `migrations[N - 1]`;
 * the file's `user_version` is the last one applied, so a store keeps one file to itself. Append
 * new steps, never edit or reorder landed ones. `name` names the file in errors.
 */
export function migrateSqlite(db: DatabaseSync, name: string, migrations: readonly SqliteMigration[]): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    const applied = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
    refuseNewer(name, applied, migrations.length);
    for (let version = applied + 1; version <= migrations.length; version++) {
      const migration = migrations[version - 1]!;
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
      db.exec(`PRAGMA user_version = ${version}`);
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Brings a PostgreSQL store's schema up to date in one transaction. Migration N is `migrations[N - 1]`;
 * the table garment_press_migrations holds (store, version) for each applied step, so several stores
 * share one database. Instances starting together wait for each other on an advisory lock. Append new
 * steps, never edit or reorder landed ones.
 */
export async function migratePostgres(database: PostgresDatabase, store: string, migrations: readonly PostgresMigration[]): Promise<void> {
  await database.inTransaction(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATIONS_LOCK]);
    await client.query(`
      CREATE TABLE IF NOT EXISTS garment_press_migrations (
        store TEXT NOT NULL,
        version INTEGER NOT NULL,
        applied_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (store, version)
      )`);
    const { rows } = await client.query<{ applied: number }>(
      'SELECT COALESCE(MAX(version), 0) AS applied FROM garment_press_migrations WHERE store = $1',
      [store],
    );
    const applied = rows[0]!.applied;
    refuseNewer(`the ${store} tables of ${database.name}`, applied, migrations.length);
    for (let version = applied + 1; version <= migrations.length; version++) {
      const migration = migrations[version - 1]!;
      if (typeof migration === 'string') await client.query(migration);
      else await migration(client);
      await client.query('INSERT INTO garment_press_migrations (store, version) VALUES ($1, $2)', [store, version]);
    }
  });
}

/** The advisory lock key migrations take ("gp-mig" in ASCII), so two instances never migrate at once. */
const MIGRATIONS_LOCK = 0x67702d6d6967;

function refuseNewer(name: string, applied: number, known: number): void {
  if (applied > known) {
    throw new SchemaTooNewError(
      `${name} has schema version ${applied}, newer than this code's ${known}; run the newer garment-press on it`,
    );
  }
}
