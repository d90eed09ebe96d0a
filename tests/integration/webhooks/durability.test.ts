import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openOutbox } from '../../../src/lib/webhooks/index.ts';
import type { Outbox } from '../../../src/lib/webhooks/index.ts';
import type { Reply, TestReceiver } from './support/receiver.ts';
import { startReceiver } from './support/receiver.ts';
import { type OutboxTestDatabase, outboxDatabases, type TestDatabase } from './support/outbox-databases.ts';
import { createTestCertificate } from './support/tls.ts';
import type { TestCertificate } from './support/tls.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const NODE = join(ROOT, 'node_modules/.bin/node');
const CLI = join(ROOT, 'src/cli/webhook.ts');
const MINUTE = 60_000;
const T0 = Date.UTC(2026, 6, 1, 8, 0, 0, 0);
const ORG = 'org_durable';
const SECRET = 'whsec_durability_secret';
const HANDLE = 'c56a4180-65aa-42ec-a945-5fd21dec0538';

let certificate: TestCertificate;
let dir: string;
let now: number;
let outbox: Outbox;
let receiver: TestReceiver;
const workers: ChildProcess[] = [];
let workerOutput = '';
let database: TestDatabase;

beforeAll(() => {
  certificate = createTestCertificate();
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map(killWorker));
  await outbox.close();
  await database.close();
  await receiver.close();
});

async function setUp(kind: OutboxTestDatabase, replies: Reply[]): Promise<void> {
  database = await kind.create();
  dir = mkdtempSync(join(tmpdir(), 'webhook-durability-'));
  writeFileSync(join(dir, 'secrets.json'), JSON.stringify({ [ORG]: SECRET }));
  setClock(T0);
  workerOutput = '';
  receiver = await startReceiver({
    certificate,
    secrets: () => [SECRET],
    now: () => now,
    reply: (index) => replies[index] ?? { status: 200 },
  });
  // The test's own handle on the database: it enqueues and reads attempts, and never sends.
  outbox = await openOutbox(database.database, { secretFor: () => SECRET, policy: { allowLoopback: true }, now: () => now });
  await outbox.enqueue({
    event: 'design.completed',
    handle: HANDLE,
    tool: 'design.generate',
    organizationId: ORG,
    callbackUrl: receiver.url(),
    dataJson: `{"handle":"${HANDLE}","status":"complete","done":true}`,
  });
}

/** Moves the worker's clock; written by rename so the worker never reads half a file. */
function setClock(epochMs: number): void {
  now = epochMs;
  writeFileSync(join(dir, 'clock.next'), String(epochMs));
  renameSync(join(dir, 'clock.next'), join(dir, 'clock'));
}

function startWorker(): ChildProcess {
  const worker = spawn(
    NODE,
    [
      CLI,
      'deliver',
      '--db',
      database.address,
      '--secrets',
      join(dir, 'secrets.json'),
      '--allow-loopback',
      '--ca',
      certificate.certPath,
      '--clock-file',
      join(dir, 'clock'),
      '--poll-ms',
      '20',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  worker.stdout?.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
  worker.stderr?.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
  workers.push(worker);
  return worker;
}

async function killWorker(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((resolveExit) => worker.once('exit', resolveExit));
  worker.kill('SIGKILL');
  await exited;
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; worker output:\n${workerOutput}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 20));
  }
}

/**
 * Shows a live worker has nothing else to send at the current clock: a marker event, due now, is
 * delivered, so the worker has looked at everything due since the clock was set.
 */
async function waitUntilIdle(): Promise<void> {
  const handle = randomUUID();
  await outbox.enqueue({
    event: 'test.completed',
    handle,
    tool: 'webhooks.send_test',
    organizationId: ORG,
    callbackUrl: receiver.url('/marker'),
    dataJson: '{}',
  });
  await waitFor(async () => (await outbox.getEntry(handle))?.state === 'accepted', 'the marker event to be delivered');
}

/** The receiver's requests for the event under test, markers left out. */
const eventRequests = () => receiver.requests.filter((request) => request.path !== '/marker');

const outcomes = async () =>
  (await outbox.listDeliveries(ORG, { handle: HANDLE }))[0]!.attempts.map((attempt) => `${attempt.attemptNumber}:${attempt.outcome}`);

// Each test starts several real processes; a loaded machine needs more than the default 30 s.
describe.each(outboxDatabases)('outbox worker on $name killed and restarted', { timeout: 90_000 }, (kind) => {
  it('resumes the schedule after being killed between attempts, losing nothing and resending nothing accepted', async () => {
    await setUp(kind, [{ status: 500 }, { status: 503 }, { status: 200 }]);

    const first = startWorker();
    await waitFor(async () => (await outcomes()).join() === '1:failed', 'attempt 1 to be recorded');
    await killWorker(first);
    setClock(T0 + MINUTE);

    const second = startWorker();
    await waitFor(async () => (await outcomes()).includes('2:failed'), 'attempt 2 to be recorded');
    await killWorker(second);
    expect((await outbox.getEntry(HANDLE))?.nextAttemptAt).toBe(new Date(T0 + 6 * MINUTE).toISOString());

    setClock(T0 + 6 * MINUTE);
    const third = startWorker();
    // The log line is written just after the commit; wait for both before killing.
    await waitFor(
      async () => (await outcomes()).includes('3:accepted') && workerOutput.includes(`webhook ${HANDLE} attempt 3:`),
      'attempt 3 to be accepted',
    );
    await killWorker(third);

    setClock(T0 + 24 * 60 * MINUTE);
    startWorker();
    await waitUntilIdle();

    expect(await outcomes()).toEqual(['1:failed', '2:failed', '3:accepted']);
    expect(await outbox.getEntry(HANDLE)).toMatchObject({ state: 'accepted', attemptsMade: 3 });
    expect(eventRequests().map((request) => request.event?.deliveredAt)).toEqual(
      [T0, T0 + MINUTE, T0 + 6 * MINUTE].map((time) => new Date(time).toISOString()),
    );
    expect(receiver.requests.every((request) => request.verification === 'accepted')).toBe(true);
    expect(receiver.processedHandles.filter((handle) => handle === HANDLE)).toEqual([HANDLE]);
    expect(workerOutput).toContain(`webhook ${HANDLE} attempt 3: accepted, 200`);
    expect(workerOutput).not.toContain(SECRET);
    expect(workerOutput).not.toContain('v1=');
  });

  it('retries an attempt cut off by the kill, and the receiver dedupes the repeat on its handle and event', async () => {
    await setUp(kind, ['hang', { status: 200 }]);

    const first = startWorker();
    await waitFor(() => receiver.requests.length === 1, 'the receiver to get attempt 1');
    await killWorker(first);
    expect(await outcomes()).toEqual(['1:in_flight']);

    // Past both the 60 s lease of the dead worker and the 1 minute retry delay.
    setClock(T0 + MINUTE);
    startWorker();
    await waitFor(async () => (await outcomes()).includes('2:accepted'), 'attempt 2 to be accepted');
    await waitUntilIdle();

    const [delivery] = await outbox.listDeliveries(ORG, { handle: HANDLE });
    const attempts = delivery!.attempts;
    expect(attempts.map((attempt) => [attempt.attemptNumber, attempt.outcome, attempt.error])).toEqual([
      [1, 'interrupted', 'interrupted: the worker stopped before the answer was recorded'],
      [2, 'accepted', null],
    ]);
    const [cutOff, retried] = eventRequests();
    expect(eventRequests()).toHaveLength(2);
    expect(cutOff?.headers['x-svc-delivery']).not.toBe(retried?.headers['x-svc-delivery']);
    expect(receiver.processedHandles.filter((handle) => handle === HANDLE)).toEqual([HANDLE]);
  });
});
