// The publish API held to its OpenAPI document: a real service (`serve`, real builds, a real HTTPS
// receiver) driven through every operation with good and bad requests, each answer checked against
// /openapi.json as the built site serves it (status, headers, body by ajv), and each webhook the
// receiver gets checked against the document's webhooks.
import { randomUUID } from 'node:crypto';
import { cpSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PublishService, startPublishService } from '../../../src/lib/service/index.ts';
import { SCHEMA_PATH } from '../../../src/lib/site/urls.ts';
import { contractOf } from '../../support/openapi-contract.ts';
import { openRawConnection, type RawResponse, requestHead } from '../../support/raw-http.ts';
import { mountSmallFilesystem, type SmallFilesystem } from '../../support/small-filesystem.ts';
import { startServedSite, teeRevision, type ServedSite } from '../mcp/served-site.ts';
import {
  call,
  eventually,
  sampleRecordAs,
  serviceWorkspace,
  type Answer,
  type Organization,
  type Receiver,
  type ServeProcess,
} from '../publish/support.ts';

let site: ServedSite;
let receiver: Receiver;
/** An HTTPS receiver that takes each delivery and never answers. */
let silent: { url: string; close: () => void };
let serve: ServeProcess;
let acme: Organization;
let other: Organization;
let contract: ReturnType<typeof contractOf>;
let document: Record<string, any>;
const checked: string[] = [];

beforeAll(async () => {
  site = await startServedSite('openapi-contract-', ['Acme', 'Other']);
  ({ receiver, serve } = site);
  [acme, other] = site.organizations as [Organization, Organization];
  const { certificate } = site.workspace;
  const silentServer = createHttpsServer({ key: certificate.key, cert: certificate.cert }, () => {});
  await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
  silent = {
    url: `https://127.0.0.1:${(silentServer.address() as AddressInfo).port}`,
    close: () => {
      silentServer.closeAllConnections();
      silentServer.close();
    },
  };
  // The document as the site serves it, beside the record schema it refers to.
  const served = await call(serve.url, '/openapi.json');
  expect(served.status).toBe(200);
  document = served.json();
  expect((await call(serve.url, SCHEMA_PATH)).status).toBe(200);
  contract = contractOf(document, SCHEMA_PATH);
}, 180_000);

afterAll(async () => {
  await site?.close();
  silent?.close();
});

/** Sends a request and fails the test unless the answer keeps the contract of `operation` ("METHOD /path/{template}"). */
async function exchange(
  operation: string,
  pathAndQuery: string,
  options: Parameters<typeof call>[2] = {},
  expectedStatus?: number,
): Promise<Answer> {
  const [method, template] = operation.split(' ') as [string, string];
  const answer = await call(serve.url, pathAndQuery, { method, ...options });
  if (expectedStatus !== undefined) expect(answer.status, `${operation}: ${answer.text}`).toBe(expectedStatus);
  expect(contract.responseProblems(method, template, { status: answer.status, headers: answer.headers, body: answer.text })).toEqual([]);
  checked.push(`${operation} ${answer.status}`);
  return answer;
}

describe('every operation of /api/ keeps the OpenAPI document', () => {
  it('POST /api/publish: accepted, replayed, and each refusal', async () => {
    const op = 'POST /api/publish';
    const idempotencyKey = randomUUID();
    const body = { record: teeRevision('2026-11-28.1'), callback_url: `${receiver.url}/hooks/contract` };
    const first = await exchange(op, '/api/publish', { key: acme.key, body, headers: { 'Idempotency-Key': idempotencyKey } }, 202);
    const again = await exchange(op, '/api/publish', { key: acme.key, body, headers: { 'Idempotency-Key': idempotencyKey } }, 202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json().handle).toBe(first.json().handle);
    await exchange(
      op,
      '/api/publish',
      { key: acme.key, body: { ...body, record: teeRevision('2026-11-28.9') }, headers: { 'Idempotency-Key': idempotencyKey } },
      409,
    );
    await exchange(op, '/api/publish', { key: acme.key, body, headers: { 'Idempotency-Key': 'a key with spaces' } }, 400);
    await exchange(op, '/api/publish', { body }, 401);
    await exchange(op, '/api/publish', { key: `${acme.key}x`, body }, 401);
    await exchange(op, '/api/publish', { key: acme.key, rawBody: '{"record": ', headers: { 'Content-Type': 'application/json' } }, 400);
    await exchange(op, '/api/publish', { key: acme.key, body: { record: teeRevision('x'), extra: 1 } }, 400);
    await exchange(op, '/api/publish', { key: other.key, body: { record: teeRevision('2026-11-28.2') } }, 403);
    await exchange(
      op,
      '/api/publish',
      { key: acme.key, body: { record: teeRevision('2026-11-28.3'), callback_url: 'http://example.com/hook' } },
      422,
    );
    await exchange(
      op,
      '/api/publish',
      { key: acme.key, rawBody: '--x--', headers: { 'Content-Type': 'multipart/form-data; boundary=x' } },
      415,
    );
    await exchange(
      op,
      '/api/publish',
      { key: acme.key, rawBody: Buffer.alloc(6 * 1024 * 1024, 32), headers: { 'Content-Type': 'application/json' } },
      413,
    );

    // A record that fails its task: the other webhook.
    const failing = await exchange(
      op,
      '/api/publish',
      { key: acme.key, body: { record: { ...teeRevision('2026-11-28.4'), title: 42 }, callback_url: `${receiver.url}/hooks/contract` } },
      202,
    );
    const handles = [first.json().handle, failing.json().handle] as string[];
    for (const handle of handles)
      await exchange('GET /api/generations/{handle}', `/api/generations/${handle}?wait=50`, { key: acme.key }, 200);
    await eventually(() => (handles.every((handle) => receiver.acceptedFor(handle).length > 0) ? true : undefined), 20_000, 'both events');
  }, 120_000);

  it('GET /api/generations/{handle}: a long poll, and each refusal', async () => {
    const op = 'GET /api/generations/{handle}';
    await exchange(op, `/api/generations/${randomUUID()}`, { key: acme.key }, 404);
    const [delivery] = receiver.deliveries;
    await exchange(op, `/api/generations/${delivery!.event!.handle}?wait=abc`, { key: acme.key }, 400);
    await exchange(op, `/api/generations/${delivery!.event!.handle}`, { key: other.key }, 404);
    await exchange(op, `/api/generations/${delivery!.event!.handle}`, {}, 401);
  });

  it('the webhooks the receiver got: publish.completed, publish.failed and test.completed', async () => {
    const test = await exchange(
      'POST /api/webhooks/test',
      '/api/webhooks/test',
      { key: acme.key, body: { callback_url: `${receiver.url}/hooks/test` } },
      200,
    );
    expect(test.json().delivery.event).toBe('test.completed');
    await exchange(
      'POST /api/webhooks/test',
      '/api/webhooks/test',
      { key: acme.key, rawBody: 'nope', headers: { 'Content-Type': 'application/json' } },
      400,
    );
    await exchange('POST /api/webhooks/test', '/api/webhooks/test', { key: acme.key, body: {} }, 400);
    await exchange(
      'POST /api/webhooks/test',
      '/api/webhooks/test',
      { key: acme.key, body: { callback_url: 'https://127.0.0.1.nip.io.local/x' } },
      422,
    );
    await exchange('POST /api/webhooks/test', '/api/webhooks/test', { body: { callback_url: `${receiver.url}/x` } }, 401);
    await exchange(
      'POST /api/webhooks/test',
      '/api/webhooks/test',
      { key: acme.key, rawBody: '--x--', headers: { 'Content-Type': 'multipart/form-data; boundary=x' } },
      415,
    );
    await exchange(
      'POST /api/webhooks/test',
      '/api/webhooks/test',
      { key: acme.key, rawBody: Buffer.alloc(6 * 1024 * 1024, 32), headers: { 'Content-Type': 'application/json' } },
      413,
    );
    const events = new Set<string>();
    for (const delivery of receiver.deliveries) {
      const event = String(delivery.headers['x-svc-event']);
      events.add(event);
      expect(contract.webhookProblems(event, { headers: delivery.headers, body: delivery.rawBody })).toEqual([]);
    }
    expect([...events].sort()).toEqual(['publish.completed', 'publish.failed', 'test.completed']);
  }, 60_000);

  it('the deliveries: a page, paging on, a resend, and each refusal', async () => {
    const op = 'GET /api/webhooks/deliveries';
    const page = await exchange(op, '/api/webhooks/deliveries', { key: acme.key }, 200);
    expect(page.json().deliveries.length).toBeGreaterThanOrEqual(3);
    const first = await exchange(op, '/api/webhooks/deliveries?limit=1', { key: acme.key }, 200);
    await exchange(op, `/api/webhooks/deliveries?limit=1&before=${first.json().next_before}&outcome=delivered`, { key: acme.key }, 200);
    await exchange(op, '/api/webhooks/deliveries?outcome=lost', { key: acme.key }, 400);
    await exchange(op, '/api/webhooks/deliveries?limit=0', { key: acme.key }, 400);
    await exchange(op, '/api/webhooks/deliveries?colour=red', { key: acme.key }, 400);
    await exchange(op, '/api/webhooks/deliveries', {}, 401);

    const resend = 'POST /api/webhooks/deliveries/{handle}/resend';
    const handle = page.json().deliveries.find((delivery: { event: string }) => delivery.event === 'publish.completed').handle;
    await exchange(resend, `/api/webhooks/deliveries/${handle}/resend`, { key: acme.key }, 202);
    await exchange(resend, `/api/webhooks/deliveries/${randomUUID()}/resend`, { key: acme.key }, 404);
    await exchange(resend, `/api/webhooks/deliveries/${handle}/resend`, { key: other.key }, 404);
    await exchange(resend, `/api/webhooks/deliveries/${handle}/resend`, {}, 401);

    // An event whose attempt is under way (its receiver has not answered yet) is not resent.
    const published = await exchange(
      'POST /api/publish',
      '/api/publish',
      { key: acme.key, body: { record: teeRevision('2026-11-28.5'), callback_url: `${silent.url}/hook` } },
      202,
    );
    const silentHandle = published.json().handle as string;
    await eventually(
      async () =>
        (await call(serve.url, `/api/webhooks/deliveries?handle=${silentHandle}`, { key: acme.key })).json().deliveries[0]?.attempts[0]
          ?.outcome === 'in_flight' || undefined,
      60_000,
      'an attempt in flight',
    );
    const inFlight = await exchange(resend, `/api/webhooks/deliveries/${silentHandle}/resend`, { key: acme.key }, 409);
    expect(inFlight.headers.get('retry-after')).toMatch(/^\d+$/);
  }, 90_000);

  it('the signing secret, health, and the contract covering every operation', async () => {
    await exchange('GET /api/webhooks/secret', '/api/webhooks/secret', { key: acme.key }, 200);
    await exchange('GET /api/webhooks/secret', '/api/webhooks/secret', { key: 'gpk_nope' }, 401);
    await exchange('POST /api/webhooks/secret/rotate', '/api/webhooks/secret/rotate', { key: other.key }, 200);
    await exchange('POST /api/webhooks/secret/rotate', '/api/webhooks/secret/rotate', {}, 401);
    await exchange('GET /api/health', '/api/health', {}, 200);
  });
});

describe('the statuses only a fault causes keep the document too', () => {
  let faulty: PublishService;
  let disk: SmallFilesystem;
  let dataDir: string;
  let key: string;

  // A service of its own, on real faults: its data folder on a small tmpfs, and a body timeout short enough to wait for.
  beforeAll(async () => {
    const workspace = await serviceWorkspace('openapi-faults-', ['Acme']);
    key = workspace.organizations[0]!.key;
    disk = mountSmallFilesystem('16m');
    dataDir = path.join(disk.dir, 'data');
    cpSync(workspace.dataDir, dataDir, { recursive: true });
    faulty = await startPublishService({
      port: 0,
      recordsDir: workspace.recordsDir,
      outDir: workspace.outDir,
      dataDir,
      bodyTimeoutMs: 3000,
      log: () => {},
    });
  });
  afterAll(async () => {
    await faulty?.close({ graceMs: 0 });
    disk?.unmount();
  });

  /** Fails the test unless a raw answer keeps the contract of `operation` with `status`. */
  function keepsContract(operation: string, answer: RawResponse, status: number): void {
    const [method, template] = operation.split(' ') as [string, string];
    expect(answer.status, `${operation}: ${answer.body}`).toBe(status);
    expect(contract.responseProblems(method, template, { status: answer.status, headers: answer.headers, body: answer.body })).toEqual([]);
    checked.push(`${operation} ${answer.status}`);
  }

  it('408: a body that stops coming is cut off once the body timeout passes', async () => {
    for (const operation of ['POST /api/publish', 'POST /api/webhooks/test']) {
      const connection = await openRawConnection(faulty.url);
      const target = operation.split(' ')[1]!;
      connection.write(
        `${requestHead('POST', target, { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': '10' })}{`,
      );
      const [answer] = await connection.responses;
      keepsContract(operation, answer!, 408);
    }
  });

  it('507: a publish on a full disk; health says the disk is full', async () => {
    const ballast = disk.fill();
    try {
      const answer = await call(faulty.url, '/api/publish', { key, body: { record: sampleRecordAs('full-disk-tee') } });
      keepsContract('POST /api/publish', { status: answer.status, headers: Object.fromEntries(answer.headers), body: answer.text }, 507);
      expect(answer.json().error.code).toBe('insufficient_storage');
      const health = await call(faulty.url, '/api/health');
      keepsContract('GET /api/health', { status: health.status, headers: Object.fromEntries(health.headers), body: health.text }, 200);
      expect(health.json()).toMatchObject({ status: 'attention', disk: { state: 'full' } });
    } finally {
      rmSync(ballast);
    }
  });

  it('503: every POST on a connection the service is stopping under, and health once a database is gone', async () => {
    const stopping = [
      'POST /api/publish',
      'POST /api/webhooks/deliveries/{handle}/resend',
      'POST /api/webhooks/test',
      'POST /api/webhooks/secret/rotate',
    ];
    // Each connection has a request in flight (its body half sent) when the service starts to stop; the
    // request sent behind it on the same connection comes to a service that is stopping.
    const connections = await Promise.all(stopping.map(() => openRawConnection(faulty.url)));
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    let inFlight = 0;
    faulty.server.on('request', () => inFlight++);
    for (const connection of connections)
      connection.write(`${requestHead('POST', '/api/webhooks/test', { ...headers, 'Content-Length': '2' })}{`);
    await eventually(() => (inFlight === connections.length ? true : undefined), 10_000, 'the service to take each request');
    rmSync(path.join(dataDir, 'publish.db'));
    const gone = await call(faulty.url, '/api/health');
    keepsContract('GET /api/health', { status: gone.status, headers: Object.fromEntries(gone.headers), body: gone.text }, 503);
    expect(gone.json()).toMatchObject({
      status: 'failing',
      databases: expect.arrayContaining([{ database: 'publish.db', state: 'missing', message: expect.any(String) }]),
    });

    const closed = faulty.close({ graceMs: 0 });
    stopping.forEach((operation, index) => {
      const target = operation.split(' ')[1]!.replace('{handle}', randomUUID());
      connections[index]!.write(`}${requestHead('POST', target, { ...headers, 'Content-Length': '2' })}{}`);
    });
    for (const [index, operation] of stopping.entries()) {
      const [first, second] = await connections[index]!.responses;
      expect(first!.status, JSON.stringify([first, second])).toBe(400);
      keepsContract(operation, second!, 503);
    }
    await closed;
  });
});

describe('the contract test', () => {
  it('saw every operation of the document answer every status the document lists for it', () => {
    const operations = Object.entries<Record<string, unknown>>(document.paths).flatMap(([template, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${template}`),
    );
    for (const operation of operations)
      expect(
        checked.some((entry) => entry.startsWith(`${operation} `)),
        operation,
      ).toBe(true);
    const listed = Object.entries<Record<string, { responses: object }>>(document.paths).flatMap(([template, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        Object.keys(operation.responses).map((status) => `${method.toUpperCase()} ${template} ${status}`),
      ),
    );
    expect(listed.filter((status) => !checked.includes(status))).toEqual([]);
  });
});
