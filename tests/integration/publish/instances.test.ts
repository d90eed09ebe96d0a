// Two `serve` processes on one PostgreSQL database and one records and output folder, as the README's
// "Beyond one machine" runs them: any instance answers anything, one builds at a time, long polls
// wake across instances, and when the builder is killed outright the other finishes its tasks.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPostgresDatabase } from '../../support/postgres.ts';
import {
  call,
  eventually,
  type Organization,
  type Receiver,
  type ServeProcess,
  type ServiceWorkspace,
  sampleRecordAs,
  serviceWorkspace,
  startReceiver,
  startServe,
  stopServe,
} from './support.ts';

let workspace: ServiceWorkspace;
let databaseUrl: string;
let receiver: Receiver;
let acme: Organization;
const instances: Record<string, ServeProcess> = {};

/** Starts instance `name` on the shared database and folders, with a data folder of its own (its space reserve). */
async function startInstance(name: string): Promise<ServeProcess> {
  const dataDir = path.join(workspace.work, `data-${name}`);
  mkdirSync(dataDir, { recursive: true });
  const started = await startServe(
    [
      '--database',
      databaseUrl,
      '--instance',
      name,
      '--records',
      workspace.recordsDir,
      '--out',
      workspace.outDir,
      '--data',
      dataDir,
      '--allow-loopback-callbacks',
      '--trust-ca',
      workspace.certificate.certFile,
    ],
    { ...process.env, SITE_URL: 'https://garments.example' },
  );
  instances[name] = started;
  return started;
}

async function publish(on: ServeProcess, slug: string): Promise<string> {
  const answer = await call(on.url, '/api/publish', {
    key: acme.key,
    body: { record: sampleRecordAs(slug), callback_url: `${receiver.url}/hooks/${slug}` },
  });
  expect(answer.status, answer.text).toBe(202);
  return answer.json().handle;
}

/** Long-polls `handle` on `on` until it ends; returns the final projection. */
async function finalState(on: ServeProcess, handle: string): Promise<{ status: string; done: boolean }> {
  for (;;) {
    const answer = await call(on.url, `/api/generations/${handle}?wait=50`, { key: acme.key });
    expect(answer.status, answer.text).toBe(200);
    if (answer.json().done) return answer.json();
  }
}

/** The deliveries `on` lists for `handles`, once none is pending (the receiver answers before the outbox records it). */
function recordedDeliveries(on: ServeProcess, handles: string[]): Promise<Array<Record<string, unknown>>> {
  return eventually(
    async () => {
      const listed = (await call(on.url, '/api/webhooks/deliveries?limit=100', { key: acme.key })).json().deliveries;
      const found = listed.filter((entry: { handle: string }) => handles.includes(entry.handle));
      return found.length === handles.length && found.every((entry: { outcome: string }) => entry.outcome !== 'pending')
        ? found
        : undefined;
    },
    30_000,
    'the deliveries recorded',
  );
}

async function health(on: ServeProcess) {
  return (await call(on.url, '/api/health')).json();
}

/** When the log of `on` says the task ended, in epoch milliseconds. */
function endedAt(on: ServeProcess, handle: string): number | undefined {
  const line = new RegExp(`^(\\S+) task ${handle} (complete|failed|superseded)`, 'm').exec(on.output());
  return line === null ? undefined : Date.parse(line[1]!);
}

beforeAll(async () => {
  databaseUrl = await freshPostgresDatabase();
  workspace = await serviceWorkspace('instances-', ['Acme'], { databaseUrl });
  [acme] = workspace.organizations as [Organization];
  receiver = await startReceiver(workspace.certificate, () => [acme.secret]);
  await startInstance('a');
  // a started first and holds the lease; b starts only once that is so, to know which one builds.
  await eventually(async () => ((await health(instances.a!)).build_lease.holder === 'a' ? true : undefined), 10_000, 'a to hold the lease');
  await startInstance('b');
}, 120_000);

afterAll(async () => {
  for (const instance of Object.values(instances)) await stopServe(instance);
  await receiver?.close();
});

describe('two instances on one PostgreSQL database', () => {
  it('both name themselves, the database and the one builder in health', async () => {
    for (const name of ['a', 'b']) {
      expect(await health(instances[name]!)).toMatchObject({
        status: 'ok',
        instance: name,
        database: { kind: 'postgresql', answers: true },
        build_lease: { holder: 'a', held_here: name === 'a' },
      });
    }
  });

  it('takes publishes on either, answers polls on the other, and delivers each event once, signed with the organization secret', async () => {
    const { a, b } = instances as { a: ServeProcess; b: ServeProcess };
    const slugs = Array.from({ length: 6 }, (_, i) => `instances-spread-${i}`);
    const handles = await Promise.all(slugs.map((slug, i) => publish(i % 2 === 0 ? a : b, slug)));
    // Polled on the instance that did not take the publish.
    const states = await Promise.all(handles.map((handle, i) => finalState(i % 2 === 0 ? b : a, handle)));
    expect(states.map((state) => state.status)).toEqual(Array(6).fill('complete'));
    // The pages are served by both, from the shared output folder.
    for (const on of [a, b]) expect((await call(on.url, `/garments/${slugs[1]}/svc/`)).status).toBe(200);

    await eventually(() => (handles.every((handle) => receiver.acceptedFor(handle).length > 0) ? true : undefined), 30_000, 'six events');
    for (const handle of handles) {
      const received = receiver.deliveries.filter((delivery) => delivery.event?.handle === handle);
      expect(received, handle).toHaveLength(1);
      expect(received[0]!.rejection).toBeUndefined();
      expect(received[0]!.event).toMatchObject({ event: 'publish.completed', handle, organizationId: acme.id });
    }
    // Either instance lists every delivery, whichever sent it: delivered after one attempt, none scheduled.
    for (const on of [a, b]) {
      expect(await recordedDeliveries(on, handles)).toMatchObject(
        Array(handles.length).fill({ outcome: 'delivered', attempts_made: 1, next_attempt_at: null }),
      );
    }
  }, 240_000);

  it('wakes a long poll on one instance within a second of the task ending on the other', async () => {
    const { a, b } = instances as { a: ServeProcess; b: ServeProcess };
    const handle = await publish(a, 'instances-long-poll');
    const pollStarted = Date.now();
    const answer = await call(b.url, `/api/generations/${handle}?wait=50`, { key: acme.key });
    const answeredAt = Date.now();
    expect(answer.json()).toMatchObject({ status: 'complete', done: true });
    const ended = await eventually(() => endedAt(a, handle), 5_000, "a's log line for the task");
    // The poll was waiting before the task ended, and woke soon after (LISTEN/NOTIFY, no polling).
    expect(pollStarted).toBeLessThan(ended);
    expect(answeredAt - ended).toBeLessThan(1000);
  }, 240_000);

  it('finishes the tasks of a builder killed mid-build on the other instance, and delivers their events once', async () => {
    const { a, b } = instances as { a: ServeProcess; b: ServeProcess };
    const slugs = Array.from({ length: 4 }, (_, i) => `instances-failover-${i}`);
    const handles = await Promise.all(slugs.map((slug) => publish(b, slug)));
    // a gathers them into a build; kill it (no shutdown, no goodbye) once that build has started and before it ends.
    let stages: string[] = [];
    await eventually(
      async () => {
        stages = await Promise.all(
          handles.map(async (handle) => (await call(b.url, `/api/generations/${handle}`, { key: acme.key })).json().stage),
        );
        return stages.includes('building site') ? true : undefined;
      },
      // Under a heavy load the other test files' builds come first.
      180_000,
      'the build on a',
    ).catch((error: Error) => {
      throw new Error(`${error.message}; stages ${stages.join(', ')}; a printed:\n${a.output().slice(-3000)}`);
    });
    expect(stages).not.toContain('complete');
    a.child.kill('SIGKILL');
    await a.exited;

    const states = await Promise.all(handles.map((handle) => finalState(b, handle)));
    expect(states.map((state) => state.status)).toEqual(Array(4).fill('complete'));
    expect(await health(b)).toMatchObject({ status: 'ok', build_lease: { holder: 'b', held_here: true } });
    expect(b.output()).toMatch(/build lease taken by b/);

    await eventually(() => (handles.every((handle) => receiver.acceptedFor(handle).length > 0) ? true : undefined), 30_000, 'four events');
    for (const handle of handles)
      expect(
        receiver.deliveries.filter((delivery) => delivery.event?.handle === handle),
        handle,
      ).toHaveLength(1);
    expect(await recordedDeliveries(b, handles)).toMatchObject(Array(handles.length).fill({ outcome: 'delivered', attempts_made: 1 }));
    for (const slug of slugs) expect((await call(b.url, `/garments/${slug}/svc/`)).status, slug).toBe(200);
  }, 360_000);
});
