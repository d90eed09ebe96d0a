// A throwaway PostgreSQL cluster for the tests: Debian's server binaries, a cluster in a temporary
// folder listening on a unix socket only (no TCP), made and started by Vitest's global setup and
// stopped and removed when the run ends. Test files ask for a fresh database each.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** The environment variable the global setup leaves the cluster's socket folder in, for the test workers. */
const SOCKET_FOLDER_VARIABLE = 'GARMENT_PRESS_TEST_POSTGRES_SOCKET';

/** Where Debian keeps the server binaries: POSTGRES_BIN, or the newest /usr/lib/postgresql/<version>/bin. */
function serverBinaries(): string {
  const explicit = process.env.POSTGRES_BIN;
  if (explicit !== undefined) return explicit;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((version) => existsSync(path.join(root, version, 'bin/initdb'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) {
    throw new Error(
      "PostgreSQL's server is not installed: run scripts/ensure-test-tools.sh as root (Debian's postgresql package), or set POSTGRES_BIN",
    );
  }
  return path.join(root, newest, 'bin');
}

/** Runs a server binary as the `postgres` user when we are root (initdb refuses root), else as ourselves. */
function runServerBinary(binaries: string, command: string, args: string[]): void {
  const file = path.join(binaries, command);
  if (process.getuid?.() === 0) execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'pipe' });
  else execFileSync(file, args, { stdio: 'pipe' });
}

/** Vitest global setup: makes and starts the cluster; the returned function stops and removes it. */
export default function startTestCluster(): () => void {
  const binaries = serverBinaries();
  const folder = mkdtempSync(path.join(tmpdir(), 'postgres-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', folder]);
  const data = path.join(folder, 'data');
  runServerBinary(binaries, 'initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  // Unix socket only, in the cluster's folder; fsync off because the cluster is thrown away.
  const serverOptions = `-c listen_addresses='' -k ${folder} -c fsync=off -c full_page_writes=off -c max_connections=200`;
  runServerBinary(binaries, 'pg_ctl', ['-D', data, '-o', serverOptions, '-l', path.join(folder, 'server.log'), '-w', 'start']);
  process.env[SOCKET_FOLDER_VARIABLE] = folder;
  return () => {
    try {
      runServerBinary(binaries, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };
}

function socketUrl(socketFolder: string, database: string): string {
  return `postgresql://postgres@/${database}?host=${encodeURIComponent(socketFolder)}`;
}

/** The test cluster's socket folder, as the global setup left it. */
function clusterSocketFolder(): string {
  const folder = process.env[SOCKET_FOLDER_VARIABLE];
  if (folder === undefined) throw new Error('no test PostgreSQL cluster: add tests/support/postgres.ts to globalSetup in vitest.config.ts');
  return folder;
}

/** Makes an empty database in the test cluster and returns its connection string. */
export async function freshPostgresDatabase(): Promise<string> {
  const socketFolder = clusterSocketFolder();
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: socketUrl(socketFolder, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return socketUrl(socketFolder, name);
}
