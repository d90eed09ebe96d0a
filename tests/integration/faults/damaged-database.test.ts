// A damaged or missing database (issue 34 item 3), with real damaged SQLite files: refused at start
// with the file named, or reported by /api/health as failing; never "ok" while requests fail.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, openSync, rmSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPublishService } from '../../../src/lib/service/index.ts';
import { projectRoot } from '../../support/records.ts';
import { node } from '../../support/run.ts';
import { call, type ServiceWorkspace, serviceWorkspace } from '../publish/support.ts';

let workspace: ServiceWorkspace;
/** A data folder that has served: publish.db (keys, organizations) and outbox.db, closed cleanly. */
let servedData: string;

/** A fresh copy of the served data folder, to damage. */
function dataCopy(): string {
  const copy = path.join(mkdtempSync(path.join(tmpdir(), 'damaged-')), 'data');
  cpSync(servedData, copy, { recursive: true });
  return copy;
}

/** Runs `npm run serve` on a data folder that should be refused: what it printed and its exit code. */
function serveRefused(dataDir: string) {
  const result = spawnSync(
    node,
    [
      path.join(projectRoot, 'src/cli/serve.ts'),
      '--port',
      '0',
      '--records',
      workspace.recordsDir,
      '--out',
      workspace.outDir,
      '--data',
      dataDir,
    ],
    { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 },
  );
  return { status: result.status, stderr: result.stderr, stdout: result.stdout };
}

const start = (dataDir: string) =>
  startPublishService({
    port: 0,
    recordsDir: workspace.recordsDir,
    outDir: workspace.outDir,
    dataDir,
    buildSite: async () => ({ ok: true, output: '', seconds: 0 }),
    log: () => {},
  });

beforeAll(async () => {
  workspace = await serviceWorkspace('faults-database-', ['Acme']);
  servedData = workspace.dataDir;
  await (await start(servedData)).close({ graceMs: 0 });
});
afterAll(() => rmSync(workspace.work, { recursive: true, force: true }));

describe('a damaged database', () => {
  it('is refused at start, naming the file, when random bytes overwrote part of it', () => {
    for (const offset of [0, 4096]) {
      const dataDir = dataCopy();
      const file = path.join(dataDir, 'publish.db');
      const handle = openSync(file, 'r+');
      writeSync(handle, Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 151 + 7) % 256)), 0, 4096, offset);
      const refused = serveRefused(dataDir);
      expect(refused.status, refused.stdout).toBe(1);
      expect(refused.stderr).toContain(`${file} is`);
      expect(refused.stderr).toMatch(/damaged|not a SQLite database/);
    }
  });

  it('is refused at start, naming the file, when outbox.db was cut short', () => {
    const dataDir = dataCopy();
    const file = path.join(dataDir, 'outbox.db');
    truncateSync(file, 1000);
    const refused = serveRefused(dataDir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(file);
  });

  it('deleted under a running service is reported by /api/health, and a restart refuses to make an empty one', async () => {
    const dataDir = dataCopy();
    const service = await start(dataDir);
    try {
      expect((await call(service.url, '/api/health')).json()).toMatchObject({ status: 'ok' });
      for (const suffix of ['', '-wal', '-shm']) rmSync(path.join(dataDir, `publish.db${suffix}`), { force: true });
      const health = await call(service.url, '/api/health');
      expect(health.status).toBe(503);
      expect(health.json().status).toBe('failing');
      expect(health.json().databases[0]).toMatchObject({ database: 'publish.db', state: 'missing' });
      expect(health.json().databases[0].message).toMatch(/deleted while the service was running/);
    } finally {
      await service.close({ graceMs: 0 });
    }
    const refused = serveRefused(dataDir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`${path.join(dataDir, 'publish.db')} is missing`);
  });
});
