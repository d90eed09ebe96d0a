import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CallbackUrlError, openOutbox, SECRET_WAIT_MS } from '../../../src/lib/webhooks/index.ts';
import type { Outbox, OutboxOptions } from '../../../src/lib/webhooks/index.ts';
import { designCompleted } from './support/design-event.ts';
import { outboxDatabases } from './support/outbox-databases.ts';
import type { Reply, TestReceiver } from './support/receiver.ts';
import { startReceiver } from './support/receiver.ts';
import { createTestCertificate } from './support/tls.ts';
import type { TestCertificate } from './support/tls.ts';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0, 0);
const ORG = 'org_outbox';

let certificate: TestCertificate;
let now: number;
let secret: string;
/** Called when the receiver starts hanging on a request: the request has then certainly arrived. */
let onHang: (() => void) | undefined;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(() => {
  certificate = createTestCertificate();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(outboxDatabases)('outbox on $name', (database) => {
  async function setUp(
    replies: Reply[],
    options: Partial<OutboxOptions> = {},
    receiverSecrets = () => [secret],
  ): Promise<{ outbox: Outbox; receiver: TestReceiver }> {
    now = T0;
    secret = 'whsec_outbox_first';
    const receiver = await startReceiver({
      certificate,
      secrets: receiverSecrets,
      now: () => now,
      reply: (index, request) => {
        const reply = request.verification === 'accepted' ? (replies[index] ?? { status: 200 }) : { status: 401 };
        if (reply === 'hang') onHang?.();
        return reply;
      },
    });
    const created = await database.create();
    cleanups.push(() => created.close());
    const outbox = await openOutbox(created.database, {
      secretFor: () => secret,
      policy: { allowLoopback: true },
      trustedCa: certificate.cert,
      now: () => now,
      ...options,
    });
    cleanups.push(
      () => receiver.close(),
      () => outbox.close(),
    );
    return { outbox, receiver };
  }

  function enqueue(outbox: Outbox, receiver: TestReceiver, handle = '9b2f0c7e-5a61-4d0f-8c3e-1f2a3b4c5d6e') {
    return outbox.enqueue(designCompleted(handle, ORG, receiver.url()));
  }

  /** Runs every attempt the schedule asks for, jumping the clock to each due time. */
  async function runToTheEnd(outbox: Outbox, handle: string): Promise<number[]> {
    const sentAt: number[] = [];
    for (;;) {
      const made = await outbox.runDue();
      if (made > 0) sentAt.push(now);
      const next = (await outbox.getEntry(handle))?.nextAttemptAt;
      if (next === null || next === undefined) return sentAt;
      now = Date.parse(next);
    }
  }

  describe('outbox delivery schedule', () => {
    it('retries a failing receiver after 1 and 5 minutes, and stops once it accepts', async () => {
      const { outbox, receiver } = await setUp([{ status: 500, body: 'try later' }, { status: 503 }, { status: 200, body: 'ok' }]);
      const { entry } = await enqueue(outbox, receiver);

      expect(await outbox.runDue()).toBe(1);
      now = T0 + MINUTE - 1;
      expect(await outbox.runDue()).toBe(0);
      now = T0 + MINUTE;
      expect(await outbox.runDue()).toBe(1);
      now = T0 + MINUTE + 5 * MINUTE - 1;
      expect(await outbox.runDue()).toBe(0);
      now = T0 + 6 * MINUTE;
      expect(await outbox.runDue()).toBe(1);
      now = T0 + 24 * 60 * MINUTE;
      expect(await outbox.runDue()).toBe(0);

      expect(await outbox.getEntry(entry.handle)).toMatchObject({ state: 'accepted', attemptsMade: 3, nextAttemptAt: null });
      expect(receiver.requests.map((request) => request.verification)).toEqual(['accepted', 'accepted', 'accepted']);
      expect(receiver.requests.map((request) => request.event?.deliveredAt)).toEqual([
        new Date(T0).toISOString(),
        new Date(T0 + MINUTE).toISOString(),
        new Date(T0 + 6 * MINUTE).toISOString(),
      ]);
      expect(new Set(receiver.requests.map((request) => request.headers['x-svc-delivery'])).size).toBe(3);
      expect(receiver.processedHandles).toEqual([entry.handle]);
    });

    it('records every attempt with what was sent and how the receiver answered', async () => {
      const { outbox, receiver } = await setUp([
        { status: 500, body: 'try later' },
        { status: 200, body: 'ok' },
      ]);
      const { entry } = await enqueue(outbox, receiver);
      await runToTheEnd(outbox, entry.handle);

      const attempts = await outbox.listAttempts(ORG);
      expect(attempts.map((attempt) => [attempt.attemptNumber, attempt.outcome, attempt.status, attempt.responseBodyStart])).toEqual([
        [2, 'accepted', 200, 'ok'],
        [1, 'failed', 500, 'try later'],
      ]);
      const [second, first] = attempts;
      expect(first).toMatchObject({
        entryId: entry.id,
        organizationId: ORG,
        event: 'design.completed',
        handle: entry.handle,
        callbackUrl: receiver.url(),
        error: null,
        startedAt: new Date(T0).toISOString(),
        finishedAt: new Date(T0).toISOString(),
        requestHeaders: {
          'Content-Type': 'application/json',
          'User-Agent': 'Svc-Webhooks/1',
          'X-Svc-Event': 'design.completed',
          'X-Svc-Delivery': receiver.requests[0]?.headers['x-svc-delivery'],
          'X-Svc-Signature': `t=${T0 / 1000},v1=[redacted]`,
        },
      });
      expect(first?.requestBody).toBe(receiver.requests[0]?.body.toString());
      expect(second?.requestBody).toBe(receiver.requests[1]?.body.toString());
      expect(first?.durationMs).toBeGreaterThanOrEqual(0);
      expect(JSON.stringify(attempts)).not.toContain(secret);
      expect(await outbox.listAttempts('org_someone_else')).toEqual([]);
      expect((await outbox.listAttempts(ORG, { limit: 1, beforeId: second?.id })).map((attempt) => attempt.attemptNumber)).toEqual([1]);
    });

    it('gives up after five attempts on a receiver that never answers in time, all recorded', async () => {
      // The timeout fires once the receiver holds the request, never before it arrives: no wall clock involved.
      const timeouts = new Set<() => void>();
      onHang = () => setImmediate(() => [...timeouts].forEach((fire) => fire()));
      const startTimer = (_ms: number, fire: () => void) => {
        timeouts.add(fire);
        return () => timeouts.delete(fire);
      };
      cleanups.push(async () => (onHang = undefined));
      const { outbox, receiver } = await setUp(Array<Reply>(5).fill('hang'), { timeoutMs: 150, startTimer });
      const { entry } = await enqueue(outbox, receiver);
      const sentAt = await runToTheEnd(outbox, entry.handle);

      expect(sentAt.map((time) => time - T0)).toEqual([0, MINUTE, 6 * MINUTE, 36 * MINUTE, 156 * MINUTE]);
      expect(await outbox.getEntry(entry.handle)).toMatchObject({ state: 'given_up', attemptsMade: 5, nextAttemptAt: null });
      const attempts = await outbox.listAttempts(ORG);
      expect(attempts.map((attempt) => [attempt.attemptNumber, attempt.outcome, attempt.error])).toEqual(
        [5, 4, 3, 2, 1].map((number) => [number, 'failed', 'timed out after 150 ms']),
      );
      now += 24 * 60 * MINUTE;
      expect(await outbox.runDue()).toBe(0);
      expect(receiver.requests).toHaveLength(5);
    });

    it('gives up after five attempts on a receiver that resets the connection, all recorded', async () => {
      const { outbox, receiver } = await setUp(Array<Reply>(5).fill('reset'));
      const { entry } = await enqueue(outbox, receiver);
      await runToTheEnd(outbox, entry.handle);

      expect(await outbox.getEntry(entry.handle)).toMatchObject({ state: 'given_up', attemptsMade: 5 });
      const attempts = await outbox.listAttempts(ORG);
      expect(attempts).toHaveLength(5);
      for (const attempt of attempts)
        expect(attempt).toMatchObject({ outcome: 'failed', status: null, error: expect.stringMatching(/^ECONNRESET/) });
      expect(receiver.requests).toHaveLength(5);
    });

    it('counts a redirect as a failure and retries the original URL, never the target', async () => {
      const { outbox, receiver } = await setUp([{ status: 302, headers: { location: '/elsewhere' } }, { status: 200 }]);
      const { entry } = await enqueue(outbox, receiver);
      await runToTheEnd(outbox, entry.handle);

      expect((await outbox.listAttempts(ORG)).map((attempt) => [attempt.status, attempt.error])).toEqual([
        [200, null],
        [302, 'redirect to /elsewhere not followed'],
      ]);
      expect(receiver.requests.map((request) => request.path)).toEqual(['/hooks/garment', '/hooks/garment']);
    });

    it('signs each attempt with the secret current at send time, so a rotation applies to pending deliveries', async () => {
      // The receiver was updated first, as the spec asks, and holds only the new secret.
      const { outbox, receiver } = await setUp([], {}, () => ['whsec_outbox_rotated']);
      const { entry } = await enqueue(outbox, receiver);
      await outbox.runDue();
      secret = 'whsec_outbox_rotated';
      now += MINUTE;
      await outbox.runDue();

      expect((await outbox.listAttempts(ORG)).map((attempt) => attempt.status)).toEqual([200, 401]);
      expect((await outbox.getEntry(entry.handle))?.state).toBe('accepted');
    });
  });

  describe('Retry-After', () => {
    /** Each attempt's time after the first on the fixed schedule: 0, 1 min, then 5 min, 30 min and 2 h after the one before. */
    const SCHEDULE = [0, MINUTE, 6 * MINUTE, 36 * MINUTE, 156 * MINUTE];

    it('keeps the fixed schedule when every 503 asks for Retry-After: 0, and records each as sent', async () => {
      const { outbox, receiver } = await setUp(Array(5).fill({ status: 503, headers: { 'retry-after': '0' } }));
      const { entry } = await enqueue(outbox, receiver);
      const sentAt = await runToTheEnd(outbox, entry.handle);
      expect(sentAt.map((time) => time - T0)).toEqual(SCHEDULE);
      expect(await outbox.getEntry(entry.handle)).toMatchObject({ state: 'given_up', attemptsMade: 5 });
      const attempts = await outbox.listAttempts(ORG);
      expect(attempts.map((attempt) => [attempt.status, attempt.retryAfter])).toEqual(Array(5).fill([503, '0']));
      expect(attempts[0]).not.toHaveProperty('retryAfterHonoured');
    });

    it('keeps the fixed schedule when every 429 asks for an hour, and records each as sent', async () => {
      // An hour is longer than the first three delays and shorter than the fourth: it moves neither way.
      const { outbox, receiver } = await setUp(Array(5).fill({ status: 429, headers: { 'retry-after': '3600' } }));
      const { entry } = await enqueue(outbox, receiver);
      const sentAt = await runToTheEnd(outbox, entry.handle);
      expect(sentAt.map((time) => time - T0)).toEqual(SCHEDULE);
      expect((await outbox.listAttempts(ORG)).map((attempt) => [attempt.status, attempt.retryAfter])).toEqual(Array(5).fill([429, '3600']));
    });

    it('keeps the schedule for an HTTP date too, records it as sent, and records no Retry-After on other statuses', async () => {
      const date = new Date(T0 + 45_000).toUTCString();
      const { outbox, receiver } = await setUp([
        { status: 503, headers: { 'retry-after': date } },
        { status: 500, headers: { 'retry-after': '1' } },
        { status: 200 },
      ]);
      const { entry } = await enqueue(outbox, receiver);
      const sentAt = await runToTheEnd(outbox, entry.handle);
      expect(sentAt.map((time) => time - T0)).toEqual([0, MINUTE, 6 * MINUTE]);
      const [, second, first] = await outbox.listAttempts(ORG);
      expect(first).toMatchObject({ status: 503, retryAfter: date });
      expect(second).toMatchObject({ status: 500, retryAfter: null });
    });
  });

  describe('outbox resend', () => {
    it('sends a delivered event again now, with a new X-Svc-Delivery and the same body but delivered_at', async () => {
      const { outbox, receiver } = await setUp([]);
      const { entry } = await enqueue(outbox, receiver);
      await outbox.runDue();
      now += 10 * MINUTE;
      expect(await outbox.resend('org_someone_else', entry.handle)).toEqual({ ok: false, reason: 'not_found' });
      expect(await outbox.resend(ORG, entry.handle)).toMatchObject({
        ok: true,
        entry: { state: 'pending', nextAttemptAt: new Date(now).toISOString() },
      });
      expect(await outbox.runDue()).toBe(1);

      const [first, second] = receiver.requests;
      expect(second!.headers['x-svc-delivery']).not.toBe(first!.headers['x-svc-delivery']);
      const withoutTime = (body: Buffer) => body.toString().replace(/"delivered_at":"[^"]*"/, '');
      expect(withoutTime(second!.body)).toBe(withoutTime(first!.body));
      expect(second!.event?.deliveredAt).toBe(new Date(now).toISOString());
      const [delivery] = await outbox.listDeliveries(ORG, { handle: entry.handle });
      expect(delivery).toMatchObject({ state: 'accepted', attemptsMade: 2 });
      expect(delivery!.attempts.map((attempt) => attempt.attemptNumber)).toEqual([1, 2]);
    });

    it('gives a given-up event a new round of five attempts on the schedule', async () => {
      const { outbox, receiver } = await setUp(Array<Reply>(9).fill({ status: 500 }));
      const { entry } = await enqueue(outbox, receiver);
      await runToTheEnd(outbox, entry.handle);
      expect(await outbox.getEntry(entry.handle)).toMatchObject({ state: 'given_up', attemptsMade: 5 });
      await outbox.resend(ORG, entry.handle);
      const started = now;
      const sentAt = await runToTheEnd(outbox, entry.handle);
      expect(sentAt.map((time) => time - started)).toEqual([0, MINUTE, 6 * MINUTE, 36 * MINUTE, 156 * MINUTE]);
      expect(await outbox.getEntry(entry.handle)).toMatchObject({ state: 'accepted', attemptsMade: 10 });
    });

    it('tries an event with an attempt limit of one once (a test event), then gives up', async () => {
      const { outbox, receiver } = await setUp([{ status: 500 }]);
      const handle = '44444444-4444-4444-8444-444444444444';
      await outbox.enqueue(
        { event: 'test.completed', handle, tool: 'webhooks.send_test', organizationId: ORG, callbackUrl: receiver.url(), dataJson: '{}' },
        { attemptLimit: 1 },
      );
      await outbox.runDue();
      expect(await outbox.listDeliveries(ORG, { state: 'given_up' })).toMatchObject([{ handle, attemptsMade: 1, nextAttemptAt: null }]);
      expect(await outbox.listDeliveries(ORG, { event: 'design.completed' })).toEqual([]);
    });
  });

  describe('outbox worker', () => {
    it('sends an event at once while a slow receiver holds another attempt, which keeps only its own slot', async () => {
      // The hanging attempt's timeout fires only when the test ends, and the worker polls once an hour:
      // the second event can only be sent because enqueueing woke the worker.
      const timeouts = new Set<() => void>();
      const startTimer = (_ms: number, fire: () => void) => {
        timeouts.add(fire);
        return () => timeouts.delete(fire);
      };
      const { outbox, receiver } = await setUp(['hang', { status: 200 }], { startTimer, concurrency: 2, pollIntervalMs: 3_600_000 });
      cleanups.push(async () => [...timeouts].forEach((fire) => fire()));
      outbox.start();
      await enqueue(outbox, receiver, '11111111-1111-4111-8111-111111111111');
      await vi.waitFor(() => expect(receiver.requests).toHaveLength(1), { timeout: 10_000, interval: 20 });
      const { entry } = await enqueue(outbox, receiver, '22222222-2222-4222-8222-222222222222');
      await vi.waitFor(async () => expect((await outbox.getEntry(entry.handle))?.state).toBe('accepted'), {
        timeout: 10_000,
        interval: 20,
      });
      expect((await outbox.getEntry('11111111-1111-4111-8111-111111111111'))?.state).toBe('pending');
    });
  });

  describe('outbox enqueue', () => {
    it('keeps one event per handle when the same task is enqueued twice', async () => {
      const { outbox, receiver } = await setUp([]);
      const first = await enqueue(outbox, receiver);
      const second = await enqueue(outbox, receiver);
      expect([first.created, second.created]).toEqual([true, false]);
      expect(second.entry.id).toBe(first.entry.id);
      expect(await outbox.runDue()).toBe(1);
      expect(receiver.requests).toHaveLength(1);
    });

    it('refuses a loopback callback URL by default', async () => {
      const { receiver } = await setUp([]);
      const created = await database.create();
      cleanups.push(() => created.close());
      const strict = await openOutbox(created.database, { secretFor: () => secret });
      cleanups.push(() => strict.close());
      await expect(enqueue(strict, receiver)).rejects.toThrow(CallbackUrlError);
      await expect(enqueue(strict, receiver)).rejects.toThrow('callback URL refused: address 127.0.0.1 is loopback');
    });

    it('refuses a lease that a slow attempt could outlast', async () => {
      const created = await database.create();
      cleanups.push(() => created.close());
      await expect(openOutbox(created.database, { secretFor: () => secret, timeoutMs: 10_000, leaseMs: 10_000 })).rejects.toThrow(
        'leaseMs (10000) must exceed timeoutMs (10000), or a slow attempt could be sent twice',
      );
    });

    it('sends nothing unsigned and spends no attempt while the organization has no secret, then delivers once it has one', async () => {
      const errors: string[] = [];
      let organizationSecret = '';
      const { outbox, receiver } = await setUp([], { secretFor: () => organizationSecret, onError: (error) => errors.push(String(error)) });
      const { entry } = await enqueue(outbox, receiver);
      // Far more waits than the five attempts an event has.
      for (let wait = 0; wait < 8; wait++) {
        await outbox.runDue();
        expect(await outbox.getEntry(entry.handle)).toMatchObject({
          state: 'pending',
          attemptsMade: 0,
          nextAttemptAt: new Date(now + SECRET_WAIT_MS).toISOString(),
        });
        now += SECRET_WAIT_MS;
      }
      expect(receiver.requests).toHaveLength(0);
      expect(await outbox.listAttempts(ORG)).toEqual([]);
      expect(errors[0]).toContain(
        `design.completed ${entry.handle} not sent: no signing secret for organization ${ORG}; trying again in 60 s`,
      );

      organizationSecret = secret;
      expect(await outbox.runDue()).toBe(1);
      expect(await outbox.getEntry(entry.handle)).toMatchObject({ state: 'accepted', attemptsMade: 1 });
      expect(receiver.requests).toHaveLength(1);
    });

    it('says once, with the cause, when the secret cannot be read, and waits as for a missing one', async () => {
      const errors: string[] = [];
      const { outbox, receiver } = await setUp([], {
        secretFor: () => {
          throw new Error('database is locked');
        },
        onError: (error) => errors.push(String(error)),
      });
      const { entry } = await enqueue(outbox, receiver);
      await outbox.runDue();
      expect(errors).toEqual([
        `GarmentPressError: design.completed ${entry.handle} not sent: the signing secret of organization ${ORG} could not be read (database is locked); trying again in 60 s`,
      ]);
      expect(await outbox.getEntry(entry.handle)).toMatchObject({
        state: 'pending',
        attemptsMade: 0,
        nextAttemptAt: new Date(now + SECRET_WAIT_MS).toISOString(),
      });
      expect(receiver.requests).toHaveLength(0);
    });
  });
});
