import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkCallbackUrl } from '../../../src/lib/webhooks/callback-url.ts';
import { DELIVERY_TIMEOUT_MS, prepareDelivery, sendDelivery } from '../../../src/lib/webhooks/delivery.ts';
import type { Reply, TestReceiver } from './support/receiver.ts';
import { startReceiver } from './support/receiver.ts';
import { createTestCertificate } from './support/tls.ts';
import type { TestCertificate } from './support/tls.ts';

const SECRET = 'whsec_delivery_test_secret';
const NOW = Date.UTC(2026, 4, 14, 9, 30, 15, 123);
const DATA_JSON =
  '{"handle":"0f8fad5b-d9cb-469f-a165-70867728950e","resource_id":"res_1","status":"complete","done":true,"design_id":"des_9","progress":1.0,"stage":"Fertig ✓","image_url":"https://cdn.example.com/d.png","error":""}';
const EVENT = {
  event: 'design.completed',
  handle: '0f8fad5b-d9cb-469f-a165-70867728950e',
  tool: 'design.generate',
  organizationId: 'org_delivery',
  dataJson: DATA_JSON,
};

let certificate: TestCertificate;
let receiver: TestReceiver;
const running: TestReceiver[] = [];

beforeAll(() => {
  certificate = createTestCertificate();
});

async function useReceiver(...replies: Reply[]): Promise<void> {
  receiver = await startReceiver({
    certificate,
    secrets: () => [SECRET],
    now: () => NOW,
    reply: (index) => replies[index] ?? { status: 200 },
  });
  running.push(receiver);
}

function send(callbackUrl: string, options: Parameters<typeof sendDelivery>[1] = {}) {
  const prepared = prepareDelivery({ ...EVENT, callbackUrl }, SECRET, new Date(NOW));
  return { prepared, result: sendDelivery(prepared, { policy: { allowLoopback: true }, trustedCa: certificate.cert, ...options }) };
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((started) => started.close()));
});

describe('sendDelivery over HTTPS', () => {
  it('posts the spec body with exactly the spec headers, and the receiver verifies it', async () => {
    await useReceiver({ status: 204 });
    const { prepared, result } = send(receiver.url('/hooks/garment?source=svc'));
    expect(await result).toMatchObject({ accepted: true, status: 204, error: null });

    const [request] = receiver.requests;
    expect(request?.verification).toBe('accepted');
    expect(request?.path).toBe('/hooks/garment?source=svc');
    expect(request?.headerNames.sort()).toEqual(
      ['Connection', 'Content-Length', 'Content-Type', 'Host', 'User-Agent', 'X-Svc-Delivery', 'X-Svc-Event', 'X-Svc-Signature'].sort(),
    );
    expect(request?.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Svc-Webhooks/1',
      'x-svc-event': 'design.completed',
      'x-svc-delivery': prepared.deliveryId,
      'x-svc-signature': expect.stringMatching(/^t=1778751015,v1=[0-9a-f]{64}$/),
    });
    expect(prepared.deliveryId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(request?.body.toString()).toBe(prepared.body);
    expect(request?.event).toEqual({
      event: 'design.completed',
      handle: EVENT.handle,
      tool: 'design.generate',
      organizationId: 'org_delivery',
      deliveredAt: '2026-05-14T09:30:15.123Z',
      data: JSON.parse(DATA_JSON),
    });
    // `data` is the stored get_generation text, not a re-serialization (which would print 1.0 as 1).
    expect(request?.body.toString()).toContain(`"data":${DATA_JSON}}`);
  });

  it('gives every attempt a new X-Svc-Delivery id', () => {
    const ids = new Set(
      [1, 2, 3].map(() => prepareDelivery({ ...EVENT, callbackUrl: 'https://hooks.example.com/' }, SECRET, new Date(NOW)).deliveryId),
    );
    expect(ids.size).toBe(3);
  });

  it('records headers with the signature redacted', () => {
    const { prepared } = send('https://hooks.example.com/');
    expect(prepared.recordedHeaders['X-Svc-Signature']).toBe('t=1778751015,v1=[redacted]');
    expect(JSON.stringify(prepared.recordedHeaders)).not.toContain(prepared.headers['X-Svc-Signature']);
  });

  it('treats a non-2xx answer as a failure and keeps the first KiB of its body', async () => {
    await useReceiver({ status: 500, body: 'x'.repeat(5000) });
    const result = await send(receiver.url()).result;
    expect(result).toMatchObject({ accepted: false, status: 500, error: null });
    expect(result.responseBodyStart).toBe('x'.repeat(1024));
  });

  it('does not follow a redirect', async () => {
    await useReceiver({ status: 302, headers: { location: '/moved' } });
    const result = await send(receiver.url('/hooks/garment')).result;
    expect(result).toMatchObject({ accepted: false, status: 302, error: 'redirect to /moved not followed' });
    expect(receiver.requests.map((request) => request.path)).toEqual(['/hooks/garment']);
  });

  it('waits 10 s for an answer unless told otherwise', () => {
    expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    await useReceiver('hang');
    const result = await send(receiver.url(), { timeoutMs: 200 }).result;
    expect(result).toMatchObject({ accepted: false, status: null, error: 'timed out after 200 ms' });
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
  });

  it('reports a connection reset as the error', async () => {
    await useReceiver('reset');
    const result = await send(receiver.url()).result;
    expect(result).toMatchObject({ accepted: false, status: null });
    expect(result.error).toMatch(/^ECONNRESET: /);
  });

  it('refuses to send to loopback unless the policy allows it', async () => {
    await useReceiver({ status: 200 });
    const result = await send(receiver.url(), { policy: {} }).result;
    expect(result).toMatchObject({ accepted: false, status: null, error: 'refused: address 127.0.0.1 is loopback' });
    expect(receiver.requests).toHaveLength(0);
  });

  it('does not trust a self-signed receiver without the explicit certificate', async () => {
    await useReceiver({ status: 200 });
    const result = await send(receiver.url(), { trustedCa: undefined }).result;
    expect(result.error).toMatch(/self-signed certificate/);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('sendDelivery with a host name whose DNS answer changes', () => {
  it('does not reach a host whose answer turned private after the URL was checked', async () => {
    await useReceiver({ status: 200 });
    const answers = [['93.184.215.14'], ['127.0.0.1']];
    const resolveHost = async () => answers.shift() ?? [];
    const callbackUrl = `https://hooks.example.com:${receiver.port}/hooks/garment`;
    expect(await checkCallbackUrl(callbackUrl, { resolveHost })).toMatchObject({ allowed: true });

    const result = await send(callbackUrl, { policy: { resolveHost } }).result;
    expect(result).toMatchObject({
      accepted: false,
      status: null,
      error: 'refused at connect time: host hooks.example.com resolves to 127.0.0.1, which is loopback',
    });
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses when any one of several answers is private', async () => {
    await useReceiver({ status: 200 });
    const resolveHost = async () => ['127.0.0.1', '10.0.0.5'];
    const result = await send(`https://hooks.example.com:${receiver.port}/`, { policy: { resolveHost, allowLoopback: true } }).result;
    expect(result.error).toBe('refused at connect time: host hooks.example.com resolves to 10.0.0.5, which is private');
    expect(receiver.requests).toHaveLength(0);
  });

  it('reaches the same host once loopback is explicitly allowed, so the guard alone stopped it', async () => {
    await useReceiver({ status: 200 });
    const resolveHost = async () => ['127.0.0.1'];
    const result = await send(`https://hooks.example.com:${receiver.port}/`, { policy: { resolveHost, allowLoopback: true } }).result;
    expect(result).toMatchObject({ accepted: true, status: 200 });
    expect(receiver.requests).toHaveLength(1);
  });
});
