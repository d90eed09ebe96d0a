// An instance whose PostgreSQL goes away stays up: health and the API answer 503 (Retry-After), the site
// is still served, and once the server is back it takes the lease and publishes again. A cluster of the
// test's own, so stopping its server leaves the other test files' cluster alone.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createThrowawayDatabase, dropThrowawayDatabase, type ThrowawayCluster } from '../../../src/lib/database/throwaway-cluster.ts';
import { privatePostgresCluster } from '../../support/postgres.ts';
import {
  call,
  eventually,
  type Organization,
  type ServeProcess,
  type ServiceWorkspace,
  sampleRecordAs,
  serviceWorkspace,
  startServe,
  stopServe,
} from './support.ts';

let cluster: ThrowawayCluster;
let databaseUrl: string;
let workspace: ServiceWorkspace;
let acme: Organization;
let instance: ServeProcess;

beforeAll(async () => {
  cluster = privatePostgresCluster();
  databaseUrl = await createThrowawayDatabase(cluster.socketFolder);
  workspace = await serviceWorkspace('database-outage-', ['Acme'], { databaseUrl });
  [acme] = workspace.organizations as [Organization];
  instance = await startServe([
    ...['--database', databaseUrl, '--instance', 'x', '--records', workspace.recordsDir],
    ...['--out', workspace.outDir, '--data', workspace.dataDir],
  ]);
  await eventually(
    async () => ((await call(instance.url, '/api/health')).json().build_lease.held_here ? true : undefined),
    20_000,
    'the lease',
  );
});

afterAll(async () => {
  await stopServe(instance);
  cluster?.stop();
});

/** Publishes a sample record under `slug` and long-polls it to its end. */
async function publishToTheEnd(slug: string): Promise<string> {
  const answer = await call(instance.url, '/api/publish', { key: acme.key, body: { record: sampleRecordAs(slug) } });
  expect(answer.status, answer.text).toBe(202);
  for (;;) {
    const polled = await call(instance.url, `/api/generations/${answer.json().handle}?wait=50`, { key: acme.key });
    if (polled.json().done) return polled.json().status;
  }
}

/** The log has `pattern` past `from` characters. */
function logsAfter(from: number, pattern: RegExp, what: string): Promise<true> {
  return eventually(
    () => (pattern.test(instance.output().slice(from)) ? true : undefined),
    30_000,
    `${what}; the log:\n${instance.output()}`,
  );
}

it('answers 503 while the server is stopped, without exiting, and publishes again once it is back', async () => {
  expect(await publishToTheEnd('outage-before')).toBe('complete');

  const stoppedAt = instance.output().length;
  cluster.stopServer();
  // The lease connection, the LISTEN connection, the pool and the outbox loop have each met the stopped server.
  await logsAfter(stoppedAt, /build lease lost by x/, 'the lease lost');
  await logsAfter(stoppedAt, /build lease: could not reach the database/, 'a lease check against the stopped server');
  await logsAfter(stoppedAt, /webhook outbox error/, 'the outbox loop against the stopped server');

  const health = await call(instance.url, '/api/health');
  expect(health.status).toBe(503);
  expect(health.json()).toMatchObject({ status: 'failing', database: { kind: 'postgresql', answers: false } });
  const publish = await call(instance.url, '/api/publish', { key: acme.key, body: { record: sampleRecordAs('outage-during') } });
  expect(publish.status).toBe(503);
  expect(publish.headers.get('retry-after')).toBe('5');
  expect(publish.json().error.code).toBe('database_unavailable');
  // Readers still get the site: it is files, not the database.
  expect((await call(instance.url, '/garments/outage-before/svc/')).status).toBe(200);
  expect(instance.child.exitCode).toBeNull();

  cluster.startServer();
  await eventually(
    async () => ((await call(instance.url, '/api/health')).json().build_lease?.held_here ? true : undefined),
    30_000,
    'the lease again',
  );
  expect((await call(instance.url, '/api/health')).status).toBe(200);
  expect(await publishToTheEnd('outage-after')).toBe('complete');
  expect((await call(instance.url, '/garments/outage-after/svc/')).status).toBe(200);
}, 240_000);

it('answers 503 once its database is dropped, without exiting', async () => {
  const droppedAt = instance.output().length;
  await dropThrowawayDatabase(cluster.socketFolder, databaseUrl);
  await logsAfter(droppedAt, /build lease lost by x/, 'the lease lost');
  await logsAfter(
    droppedAt,
    /build lease: could not reach the database: database .* does not exist/,
    'a lease check on the dropped database',
  );

  const health = await call(instance.url, '/api/health');
  expect(health.status).toBe(503);
  expect(health.json().database.error).toMatch(/does not exist/);
  const secret = await call(instance.url, '/api/webhooks/secret', { key: acme.key });
  expect(secret.status).toBe(503);
  expect(secret.headers.get('retry-after')).toBe('5');
  expect(instance.child.exitCode).toBeNull();
}, 120_000);
