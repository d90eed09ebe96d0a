// Two outbox instances on one PostgreSQL database, each on its own pool as two processes would be,
// delivering to a real HTTPS receiver on loopback that verifies every signature.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PostgresDatabase } from '../../../src/lib/database/index.ts';
import { type Attempt, type Outbox, type OutboxOptions, openOutbox } from '../../../src/lib/webhooks/index.ts';
import { designCompleted } from './support/design-event.ts';
import { postgresql, type TestDatabase } from './support/outbox-databases.ts';
import { type Reply, startReceiver, type TestReceiver } from './support/receiver.ts';
import { createTestCertificate, type TestCertificate } from './support/tls.ts';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 8, 1, 9, 0, 0, 0);
const ORG = 'org_instances';
const SECRET = 'whsec_instances_secret';

let certificate: TestCertificate;
let now: number;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(() => {
  certificate = createTestCertificate();
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(reply: (index: number, handle: string | undefined) => Reply) {
  now = T0;
  const receiver = await startReceiver({
    certificate,
    secrets: () => [SECRET],
    now: () => now,
    reply: (index, request) => (request.verification === 'accepted' ? reply(index, request.event?.handle) : { status: 401 }),
  });
  cleanups.push(() => receiver.close());
  const database = await postgresql.create();
  cleanups.push(() => database.close());
  return { receiver, database };
}

/** An outbox instance on a pool of its own; its attempts are collected in `made`. */
async function instance(database: TestDatabase, options: Partial<OutboxOptions> = {}) {
  const made: Attempt[] = [];
  const pool = database.reopen() as PostgresDatabase;
  const outbox = await openOutbox(pool, {
    secretFor: () => SECRET,
    policy: { allowLoopback: true },
    trustedCa: certificate.cert,
    now: () => now,
    onAttempt: (attempt) => made.push(attempt),
    ...options,
  });
  cleanups.push(() => outbox.close());
  return { outbox, made, pool };
}

function enqueue(outbox: Outbox, receiver: TestReceiver, handle: string) {
  return outbox.enqueue(designCompleted(handle, ORG, receiver.url()));
}

describe('two outbox instances on one PostgreSQL database', () => {
  it('deliver each of 30 events exactly once when racing over the same due attempts, retries included', async () => {
    const handles: string[] = Array.from({ length: 30 }, () => randomUUID());
    // Every third event's first copy gets a 503, so its retry is raced for too.
    const refusedOnce = new Set(handles.filter((_handle, index) => index % 3 === 0));
    const { receiver, database } = await setUp((_index, handle) => {
      if (handle !== undefined && refusedOnce.delete(handle)) return { status: 503 };
      return { status: 204 };
    });
    const a = await instance(database, { concurrency: 3 });
    const b = await instance(database, { concurrency: 3 });
    for (const [index, handle] of handles.entries()) await enqueue(index % 2 === 0 ? a.outbox : b.outbox, receiver, handle);

    await Promise.all([a.outbox.runDue(), b.outbox.runDue()]);
    now += MINUTE;
    await Promise.all([a.outbox.runDue(), b.outbox.runDue()]);

    expect(receiver.requests.every((request) => request.verification === 'accepted')).toBe(true);
    expect(receiver.requests).toHaveLength(40);
    expect([...receiver.processedHandles].sort()).toEqual([...handles].sort());
    const accepted = receiver.requests.filter((request) => request.firstForEvent !== undefined);
    expect(accepted.every((request) => request.firstForEvent)).toBe(true);
    // Both instances took part, and no attempt was made twice.
    expect(a.made.length).toBeGreaterThan(0);
    expect(b.made.length).toBeGreaterThan(0);
    const attempts = [...a.made, ...b.made].map((attempt) => `${attempt.handle}#${attempt.attemptNumber}`);
    expect(new Set(attempts).size).toBe(40);
    for (const handle of handles) expect((await a.outbox.getEntry(handle))?.state).toBe('accepted');
  });

  it('retries an attempt whose instance vanished mid-delivery on the other instance, once its claim has expired', async () => {
    const { receiver, database } = await setUp((index) => (index === 0 ? 'hang' : { status: 204 }));
    // The vanishing instance's attempt never times out on its own: it is cut off by the test.
    const timeouts = new Set<() => void>();
    const vanishing = await instance(database, {
      startTimer: (_ms, fire) => {
        timeouts.add(fire);
        return () => timeouts.delete(fire);
      },
      onError: () => {},
    });
    const other = await instance(database);
    const handle = randomUUID();
    await enqueue(other.outbox, receiver, handle);

    const cutOff = vanishing.outbox.runDue();
    await vi.waitFor(() => expect(receiver.requests).toHaveLength(1), { timeout: 10_000, interval: 10 });
    // While the claim holds, the other instance sends nothing, even once the retry delay has passed.
    now = T0 + MINUTE - 1;
    expect(await other.outbox.runDue()).toBe(0);

    // The instance vanishes: its pool is gone, so it can record nothing more.
    await vanishing.pool.close();
    now = T0 + MINUTE;
    expect(await other.outbox.runDue()).toBe(1);

    const [delivery] = await other.outbox.listDeliveries(ORG, { handle });
    expect(delivery).toMatchObject({ state: 'accepted', attemptsMade: 2 });
    expect(delivery!.attempts.map((attempt) => [attempt.attemptNumber, attempt.outcome])).toEqual([
      [1, 'interrupted'],
      [2, 'accepted'],
    ]);
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[0]!.headers['x-svc-delivery']).not.toBe(receiver.requests[1]!.headers['x-svc-delivery']);
    expect(receiver.processedHandles).toEqual([handle]);

    // Its cut-off attempt ends, and it finds its database gone.
    for (const fire of timeouts) fire();
    await expect(cutOff).rejects.toThrow('Cannot use a pool after calling end on the pool');
    expect((await other.outbox.getEntry(handle))?.state).toBe('accepted');
  });
});
