// Health on PostgreSQL (issue 34's rule for SQLite, kept here): a database that does not answer is not ok.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPublishService, type PublishService } from '../../../src/lib/service/index.ts';
import { projectRoot } from '../../support/records.ts';
import { dropPostgresDatabase, freshPostgresDatabase } from '../../support/postgres.ts';
import { call } from './support.ts';

let service: PublishService;
let databaseUrl: string;

beforeAll(async () => {
  const work = mkdtempSync(path.join(tmpdir(), 'postgres-health-'));
  cpSync(path.join(projectRoot, 'records'), path.join(work, 'records'), { recursive: true });
  databaseUrl = await freshPostgresDatabase();
  service = await startPublishService({
    dataDir: path.join(work, 'data'),
    databaseUrl,
    instance: 'health-test',
    recordsDir: path.join(work, 'records'),
    outDir: path.join(work, 'out'),
    port: 0,
    buildSite: async () => ({ ok: true, output: '', seconds: 0 }),
    log: () => {},
  });
});

afterAll(() => service?.close({ graceMs: 0 }));

it('says ok with the instance, the database and the lease while the database answers, and 503 once it is gone', async () => {
  const answering = await call(service.url, '/api/health');
  expect(answering.status).toBe(200);
  expect(answering.json()).toMatchObject({
    status: 'ok',
    instance: 'health-test',
    database: { kind: 'postgresql', answers: true },
    build_lease: { holder: 'health-test', held_here: true },
  });

  await dropPostgresDatabase(databaseUrl);
  const gone = await call(service.url, '/api/health');
  expect(gone.status).toBe(503);
  expect(gone.json()).toMatchObject({ status: 'failing', instance: 'health-test', database: { kind: 'postgresql', answers: false } });
  expect(gone.json().database.error).toMatch(/does not exist|terminat/);
});
