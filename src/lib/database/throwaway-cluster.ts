// A throwaway PostgreSQL cluster, for the tests and the service bench: Debian's server binaries, a
// cluster in a temporary folder listening on a unix socket only (no TCP), removed when stopped.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** A running throwaway cluster. */
export interface ThrowawayCluster {
  /** The folder holding the cluster and its socket. */
  socketFolder: string;
  /** Stops the server, keeping its data: a database server gone from under its clients. */
  stopServer(): void;
  /** Starts the stopped server again on the same data and socket. */
  startServer(): void;
  stop(): void;
}

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

/** Makes and starts a cluster in a new folder under `parent` (default the system's temporary folder, which the postgres user must be able to enter). */
export function startThrowawayCluster(parent: string = tmpdir()): ThrowawayCluster {
  const binaries = serverBinaries();
  const folder = mkdtempSync(path.join(parent, 'postgres-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', folder]);
  const data = path.join(folder, 'data');
  runServerBinary(binaries, 'initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  // Unix socket only, in the cluster's folder; fsync off because the cluster is thrown away.
  const serverOptions = `-c listen_addresses='' -k ${folder} -c fsync=off -c full_page_writes=off -c max_connections=200`;
  const startServer = () =>
    runServerBinary(binaries, 'pg_ctl', ['-D', data, '-o', serverOptions, '-l', path.join(folder, 'server.log'), '-w', 'start']);
  startServer();
  return {
    socketFolder: folder,
    stopServer: () => runServerBinary(binaries, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    startServer,
    stop() {
      try {
        runServerBinary(binaries, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

/** The connection string of `database` in the cluster whose socket is in `socketFolder`. */
export function socketUrl(socketFolder: string, database: string): string {
  return `postgresql://postgres@/${database}?host=${encodeURIComponent(socketFolder)}`;
}

/** Runs one statement as the cluster's superuser, on its postgres database. */
async function asSuperuser(socketFolder: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: socketUrl(socketFolder, 'postgres') });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

/** Makes an empty database in the cluster and returns its connection string. */
export async function createThrowawayDatabase(socketFolder: string): Promise<string> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  await asSuperuser(socketFolder, `CREATE DATABASE ${name}`);
  return socketUrl(socketFolder, name);
}

/** Drops a database made by createThrowawayDatabase, closing its connections first. */
export async function dropThrowawayDatabase(socketFolder: string, url: string): Promise<void> {
  const name = /^postgresql:\/\/postgres@\/(\w+)\?/.exec(url)?.[1];
  if (name === undefined) throw new Error(`not a throwaway database: ${url}`);
  await asSuperuser(socketFolder, `DROP DATABASE ${name} WITH (FORCE)`);
}
