// The publish API held to its OpenAPI document: a real service (`serve`, real builds, a real HTTPS
// receiver) driven through every operation with good and bad requests, each answer checked against
// /openapi.json as the built site serves it (status, headers, body by ajv), and each webhook the
// receiver gets checked against the document's webhooks.
import { randomUUID } from 'node:crypto';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_PATH } from '../../../src/lib/site/urls.ts';
import { contractOf } from '../../support/openapi-contract.ts';
import { runCli } from '../../support/run.ts';
import {
  call,
  eventually,
  sampleRecordAs,
  serviceWorkspace,
  startReceiver,
  startServe,
  stopServe,
  type Answer,
  type Organization,
  type Receiver,
  type ServeProcess,
} from '../publish/support.ts';

const SITE = 'https://garments.example/';
const SLUG = 'ridgeline-rk6210-heavyweight-tee';

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
  const workspace = await serviceWorkspace('openapi-contract-', ['Acme', 'Other']);
  const { recordsDir, outDir, dataDir, certificate } = workspace;
  [acme, other] = workspace.organizations as [Organization, Organization];
  const built = runCli('build.ts', ['--records', recordsDir, '--out', outDir, '--site', SITE]);
  expect(built.status, built.stderr).toBe(0);
  await workspace.admin('garment', 'grant', '--slug', SLUG, '--org', acme.id);
  receiver = await startReceiver(certificate, () => [acme.secret]);
  const silentServer = createHttpsServer({ key: certificate.key, cert: certificate.cert }, () => {});
  await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
  silent = {
    url: `https://127.0.0.1:${(silentServer.address() as AddressInfo).port}`,
    close: () => {
      silentServer.closeAllConnections();
      silentServer.close();
    },
  };
  serve = await startServe([
    ...['--records', recordsDir, '--out', outDir, '--data', dataDir, '--site', SITE],
    ...['--allow-loopback-callbacks', '--trust-ca', certificate.certFile],
  ]);
  // The document as the site serves it, beside the record schema it refers to.
  const served = await call(serve.url, '/openapi.json');
  expect(served.status).toBe(200);
  document = served.json();
  expect((await call(serve.url, SCHEMA_PATH)).status).toBe(200);
  contract = contractOf(document, SCHEMA_PATH);
}, 90_000);

afterAll(async () => {
  await stopServe(serve);
  await receiver?.close();
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

const tee = (revision: string) => ({ ...sampleRecordAs(SLUG), slug: SLUG, record_revision: revision });

describe('every operation of /api/ keeps the OpenAPI document', () => {
  it('POST /api/publish: accepted, replayed, and each refusal', async () => {
    const op = 'POST /api/publish';
    const idempotencyKey = randomUUID();
    const body = { record: tee('2026-11-28.1'), callback_url: `${receiver.url}/hooks/contract` };
    const first = await exchange(op, '/api/publish', { key: acme.key, body, headers: { 'Idempotency-Key': idempotencyKey } }, 202);
    const again = await exchange(op, '/api/publish', { key: acme.key, body, headers: { 'Idempotency-Key': idempotencyKey } }, 202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json().handle).toBe(first.json().handle);
    await exchange(
      op,
      '/api/publish',
      { key: acme.key, body: { ...body, record: tee('2026-11-28.9') }, headers: { 'Idempotency-Key': idempotencyKey } },
      409,
    );
    await exchange(op, '/api/publish', { key: acme.key, body, headers: { 'Idempotency-Key': 'a key with spaces' } }, 400);
    await exchange(op, '/api/publish', { body }, 401);
    await exchange(op, '/api/publish', { key: `${acme.key}x`, body }, 401);
    await exchange(op, '/api/publish', { key: acme.key, rawBody: '{"record": ', headers: { 'Content-Type': 'application/json' } }, 400);
    await exchange(op, '/api/publish', { key: acme.key, body: { record: tee('x'), extra: 1 } }, 400);
    await exchange(op, '/api/publish', { key: other.key, body: { record: tee('2026-11-28.2') } }, 403);
    await exchange(
      op,
      '/api/publish',
      { key: acme.key, body: { record: tee('2026-11-28.3'), callback_url: 'http://example.com/hook' } },
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
      { key: acme.key, body: { record: { ...tee('2026-11-28.4'), title: 42 }, callback_url: `${receiver.url}/hooks/contract` } },
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
      { key: acme.key, body: { record: tee('2026-11-28.5'), callback_url: `${silent.url}/hook` } },
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

    const operations = Object.entries<Record<string, unknown>>(document.paths).flatMap(([template, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${template}`),
    );
    for (const operation of operations)
      expect(
        checked.some((entry) => entry.startsWith(`${operation} `)),
        operation,
      ).toBe(true);
    // Every status the document lists for an operation was seen, but those only a fault causes: a body
    // too slow (408), a database gone or a service stopping (503), a full disk (507).
    const listed = Object.entries<Record<string, { responses: object }>>(document.paths).flatMap(([template, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        Object.keys(operation.responses).map((status) => `${method.toUpperCase()} ${template} ${status}`),
      ),
    );
    expect(listed.filter((status) => !checked.includes(status) && !/ (408|503|507)$/.test(status))).toEqual([]);
  });
});
