import { type DurableDatabase, openDurableDatabase } from '../sqlite-database.ts';
import { migrateSqlite, type SqliteMigration } from './migrations.ts';

/** Opens (creating if needed) a durable SQLite database at `path` and applies its store's numbered migrations. */
export function openMigratedSqlite(path: string, migrations: readonly SqliteMigration[]): DurableDatabase {
  const database = openDurableDatabase(path, '');
  try {
    migrateSqlite(database.db, path, migrations);
  } catch (error) {
    database.db.close();
    throw error;
  }
  return database;
}
