// Two `serve` processes on one PostgreSQL database and one records and output folder, as the README's
// "Beyond one machine" runs them: any instance answers anything, one builds at a time, long polls
// wake across instances, and when the builder is killed outright the other finishes its tasks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstancePair, startInstancePair } from './instances-support.ts';
import { call, eventually, type ServeProcess } from './support.ts';

let pair: InstancePair;

/** When the log of `on` says the task ended, in epoch milliseconds. */
function endedAt(on: ServeProcess, handle: string): number | undefined {
  const line = new RegExp(`^(\\S+) task ${handle} (complete|failed|superseded)`, 'm').exec(on.output());
  return line === null ? undefined : Date.parse(line[1]!);
}

beforeAll(async () => {
  pair = await startInstancePair('instances-');
}, 120_000);

afterAll(async () => {
  await pair?.stop();
});

describe('two instances on one PostgreSQL database', () => {
  it('both name themselves, the database and the one builder in health', async () => {
    for (const name of ['a', 'b'] as const) {
      expect(await pair.health(pair[name])).toMatchObject({
        status: 'ok',
        instance: name,
        database: { kind: 'postgresql', answers: true },
        build_lease: { holder: 'a', held_here: name === 'a' },
      });
    }
  });

  it('takes publishes on either, answers polls on the other, and delivers each event once, signed with the organization secret', async () => {
    const { a, b, acme, receiver, publish, finalState, recordedDeliveries } = pair;
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
    const { a, b, acme, publish } = pair;
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
    const { a, b, acme, receiver, publish, finalState, recordedDeliveries, health } = pair;
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
