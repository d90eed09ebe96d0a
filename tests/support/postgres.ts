// The tests' PostgreSQL: one throwaway cluster (src/lib/database/throwaway-cluster.ts) made and started
// by Vitest's global setup and stopped when the run ends; test files ask for a fresh database each.
import path from 'node:path';
import {
  createThrowawayDatabase,
  dropThrowawayDatabase,
  startThrowawayCluster,
  type ThrowawayCluster,
} from '../../src/lib/database/throwaway-cluster.ts';

/** The environment variable the global setup leaves the cluster's socket folder in, for the test workers. */
const SOCKET_FOLDER_VARIABLE = 'GARMENT_PRESS_TEST_POSTGRES_SOCKET';

/** Vitest global setup: makes and starts the cluster; the returned function stops and removes it. */
export default function startTestCluster(): () => void {
  const cluster = startThrowawayCluster();
  process.env[SOCKET_FOLDER_VARIABLE] = cluster.socketFolder;
  return () => cluster.stop();
}

/** The test cluster's socket folder, as the global setup left it. */
function clusterSocketFolder(): string {
  const folder = process.env[SOCKET_FOLDER_VARIABLE];
  if (folder === undefined) throw new Error('no test PostgreSQL cluster: add tests/support/postgres.ts to globalSetup in vitest.config.ts');
  return folder;
}

/** Makes an empty database in the test cluster and returns its connection string. */
export function freshPostgresDatabase(): Promise<string> {
  return createThrowawayDatabase(clusterSocketFolder());
}

/** Drops a database made by freshPostgresDatabase, closing its connections first: a database gone from under its users. */
export function dropPostgresDatabase(url: string): Promise<void> {
  return dropThrowawayDatabase(clusterSocketFolder(), url);
}

/** A cluster of the caller's own, beside the shared one (the test run's temporary folder is closed to the postgres user): one a test may stop. */
export function privatePostgresCluster(): ThrowawayCluster {
  return startThrowawayCluster(path.dirname(clusterSocketFolder()));
}
