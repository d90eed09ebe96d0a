import { isPostgresUrl } from './postgres.ts';

/** Where the service keeps its state: SQLite files in a data folder (the default), or a PostgreSQL database several instances share. */
export type DatabaseLocation = { kind: 'sqlite'; dataDir: string } | { kind: 'postgresql'; url: string };

/** The environment variable naming a PostgreSQL database, as --database does. */
export const DATABASE_URL_VARIABLE = 'GARMENT_PRESS_DATABASE_URL';

/**
 * Picks the database from `--database` (a postgres:// URL), else GARMENT_PRESS_DATABASE_URL, else
 * the SQLite folder `--data`. Returns a message for a --database that is no PostgreSQL URL.
 */
export function databaseLocation(
  database: string | undefined,
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
): DatabaseLocation | { problem: string } {
  const url = database ?? env[DATABASE_URL_VARIABLE];
  if (url === undefined || url === '') return { kind: 'sqlite', dataDir };
  if (!isPostgresUrl(url)) {
    return {
      problem: `${database === undefined ? DATABASE_URL_VARIABLE : '--database'} expects a postgres:// or postgresql:// URL, got ${JSON.stringify(url.slice(0, 60))}; for SQLite, name the folder with --data`,
    };
  }
  return { kind: 'postgresql', url };
}
