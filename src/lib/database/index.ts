export { migratePostgres, migrateSqlite, type PostgresMigration, SchemaTooNewError, type SqliteMigration } from './migrations.ts';
export { isDatabaseUnavailable, isPostgresUrl, openPostgresDatabase, type PostgresDatabase } from './postgres.ts';
export { openMigratedSqlite } from './sqlite.ts';
export { DATABASE_URL_VARIABLE, type DatabaseLocation, databaseLocation } from './location.ts';
