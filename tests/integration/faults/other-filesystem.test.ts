// Builds whatever filesystem the output, the records and the temporary folders are on (issue 34 item 2):
// each on a real tmpfs of its own, apart from the checkout, where a rename across them fails with EXDEV.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPublishService } from '../../../src/lib/service/index.ts';
import { runCli } from '../../support/run.ts';
import { mountSmallFilesystem, type SmallFilesystem } from '../../support/small-filesystem.ts';
import { call, type ServiceWorkspace, sampleRecordAs, serviceWorkspace } from '../publish/support.ts';

let workspace: ServiceWorkspace;
let outputDisk: SmallFilesystem;
let recordsDisk: SmallFilesystem;
let recordsDir: string;
let temporaryDir: string;

beforeAll(async () => {
  workspace = await serviceWorkspace('faults-filesystem-', ['Acme']);
  outputDisk = mountSmallFilesystem('200m');
  recordsDisk = mountSmallFilesystem('50m');
  recordsDir = path.join(recordsDisk.dir, 'records');
  temporaryDir = path.join(recordsDisk.dir, 'tmp');
  cpSync(workspace.recordsDir, recordsDir, { recursive: true });
  mkdirSync(temporaryDir);
});
afterAll(() => {
  outputDisk?.unmount();
  recordsDisk?.unmount();
  rmSync(workspace.work, { recursive: true, force: true });
});

describe('a build onto other filesystems', () => {
  it('builds with npm run build, and again over its own output, with records, output and temporary folders each elsewhere', () => {
    const outDir = path.join(outputDisk.dir, 'cli-out');
    const env = { TMPDIR: temporaryDir };
    const first = runCli('build.ts', ['--records', recordsDir, '--out', outDir], { env });
    expect(first.stderr).not.toMatch(/EXDEV/);
    expect(first.status, first.stderr).toBe(0);
    expect(existsSync(path.join(outDir, 'index.html'))).toBe(true);
    expect(existsSync(path.join(outDir, '_astro'))).toBe(true);
    const again = runCli('build.ts', ['--records', recordsDir, '--out', outDir], { env });
    expect(again.status, again.stderr).toBe(0);
  }, 300_000);

  it('publishes through the service', async () => {
    const outDir = path.join(outputDisk.dir, 'service-out');
    const service = await startPublishService({ port: 0, recordsDir, outDir, dataDir: workspace.dataDir, log: () => {} });
    try {
      const key = workspace.organizations[0]!.key;
      const accepted = await call(service.url, '/api/publish', { key, body: { record: sampleRecordAs('elsewhere-tee') } });
      expect(accepted.status, accepted.text).toBe(202);
      const ended = await call(service.url, `/api/generations/${accepted.json().handle}?wait=50`, { key });
      expect(ended.json(), ended.text).toMatchObject({ status: 'complete' });
      expect(readFileSync(path.join(outDir, 'records.json'), 'utf8')).toContain('elsewhere-tee');
    } finally {
      await service.close();
    }
  }, 300_000);
});
