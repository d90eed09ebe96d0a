// A full disk (issue 34 item 1), on a real tmpfs mounted by the test: publishes get a clear answer,
// nothing half-written stays, the process stays up, restarts while full, and publishes once space is freed.
import { cpSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskFullError } from '../../../src/lib/disk-space.ts';
import { replaceFile } from '../../../src/lib/publish/records-folder.ts';
import { DatabaseFileError, openDurableDatabase } from '../../../src/lib/sqlite-database.ts';
import { mountSmallFilesystem, type SmallFilesystem } from '../../support/small-filesystem.ts';
import {
  call,
  type ServeProcess,
  type ServiceWorkspace,
  sampleRecordAs,
  serviceWorkspace,
  startServe,
  stopServe,
} from '../publish/support.ts';

let workspace: ServiceWorkspace;
let disk: SmallFilesystem;
let serve: ServeProcess | undefined;
let recordsDir: string;
let dataDir: string;

/** Files a write left half-done in the records folder (its revisions archive is no leftover). */
const leftovers = () => readdirSync(recordsDir).filter((name) => !name.endsWith('.json') && name !== '.revisions');

beforeAll(async () => {
  workspace = await serviceWorkspace('faults-full-', ['Acme']);
  disk = mountSmallFilesystem('16m');
  recordsDir = path.join(disk.dir, 'records');
  dataDir = path.join(disk.dir, 'data');
  cpSync(workspace.recordsDir, recordsDir, { recursive: true });
  cpSync(workspace.dataDir, dataDir, { recursive: true });
});
afterAll(async () => {
  await stopServe(serve);
  disk?.unmount();
  rmSync(workspace.work, { recursive: true, force: true });
});

const serveArgs = () => ['--records', recordsDir, '--data', dataDir, '--out', workspace.outDir];
const publish = (slug: string) =>
  call(serve!.url, '/api/publish', { key: workspace.organizations[0]!.key, body: { record: sampleRecordAs(slug) } });

describe('a full disk', () => {
  it('leaves no half-written record and names the file, where a write runs out of space', async () => {
    const ballast = disk.fill();
    await expect(replaceFile(path.join(recordsDir, 'big.svc.json'), 'x'.repeat(1 << 20))).rejects.toThrow(DiskFullError);
    await expect(replaceFile(path.join(recordsDir, 'big.svc.json'), 'x'.repeat(1 << 20))).rejects.toThrow(
      /big\.svc\.json: the disk is full/,
    );
    expect(leftovers()).toEqual([]);
    rmSync(ballast);
  });

  it('refuses a database it cannot open with the file named, not a bare SQLite error', () => {
    const file = path.join(disk.dir, 'scratch.db');
    openDurableDatabase(file, 'CREATE TABLE t (x)').db.close();
    const ballast = disk.fill();
    expect(() => openDurableDatabase(file, '')).toThrow(DatabaseFileError);
    expect(() => openDurableDatabase(file, '')).toThrow(`${file}: the disk is full`);
    rmSync(ballast);
  });

  it('answers publishes 507 while full, stays up, restarts while full, and publishes again once space is freed', async () => {
    serve = await startServe(serveArgs());
    const ballast = disk.fill();

    const answers = await Promise.all(['full-1', 'full-2', 'full-3', 'full-4'].map(publish));
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(507);
      expect(answer.json().error.code).toBe('insufficient_storage');
      expect(answer.json().error.message).toMatch(/the disk is full/);
    }
    expect(leftovers()).toEqual([]);
    const health = await call(serve.url, '/api/health');
    expect(health.json(), health.text).toMatchObject({ status: 'attention', disk: { state: 'full' } });
    expect(serve.child.exitCode).toBeNull();

    // Stopped and started again with the disk still full: it starts, and says so.
    await stopServe(serve);
    disk.fill();
    serve = await startServe(serveArgs());
    expect(serve.output()).toMatch(/the disk is full/);
    const again = await call(serve.url, '/api/health');
    expect(again.status).toBe(200);
    expect(again.json()).toMatchObject({
      status: 'attention',
      disk: { state: 'full' },
      databases: [{ state: 'ok' }, { state: 'ok' }],
    });
    expect((await publish('full-5')).status).toBe(507);
    expect(serve.child.exitCode).toBeNull();

    // Space freed: the same service publishes again.
    rmSync(ballast);
    for (const name of readdirSync(disk.dir).filter((entry) => entry.startsWith('ballast-'))) rmSync(path.join(disk.dir, name));
    const accepted = await publish('after-full');
    expect(accepted.status, accepted.text).toBe(202);
    const { handle } = accepted.json();
    const ended = await call(serve.url, `/api/generations/${handle}?wait=50`, { key: workspace.organizations[0]!.key });
    expect(ended.json()).toMatchObject({ status: 'complete' });
    expect((await call(serve.url, '/api/health')).json()).toMatchObject({ status: 'ok', disk: { state: 'ok' } });
  }, 240_000);
});
