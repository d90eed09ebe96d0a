// A builder frozen inside its swap (it holds the lease row, its old site not yet renamed aside) for longer
// than the lease: the other instance builds a newer site meanwhile, and the frozen one, resumed, must not
// put its older site over it. Real processes, a real SIGSTOP (the build process stops itself at that point,
// told to by GARMENT_PRESS_TEST_STOP_IN_SWAP, since no outside signal can land there reliably) and SIGCONT.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type InstancePair, processSignals, processState, startInstancePair } from './instances-support.ts';
import { call, eventually, sampleRecordAs } from './support.ts';

let pair: InstancePair;
const { signal, noteStopped, resumeAll } = processSignals();

async function liveRevision(on: { url: string }, slug: string): Promise<string> {
  const answer = await call(on.url, `/garments/${slug}/svc.json`);
  expect(answer.status, slug).toBe(200);
  return answer.json().record_revision;
}

beforeAll(async () => {
  pair = await startInstancePair('instances-frozen-swap-', { envOfA: { GARMENT_PRESS_TEST_STOP_IN_SWAP: '1' } });
}, 120_000);

afterAll(async () => {
  resumeAll();
  await pair?.stop();
});

it('resumed after the other instance swapped a newer site in, puts its older site nowhere and ends no task', async () => {
  const { a, b, publish, finalState, health } = pair;
  const slug = 'frozen-swap';
  const first = await publish(b, slug, { ...sampleRecordAs(slug), record_revision: 'first' });

  // a builds; its build process stops itself inside the swap, holding the lease row. a hangs too (a frozen machine).
  const buildPid = await eventually(
    () => {
      const pid = [...a.output().matchAll(/site build running as process (\d+)/g)].at(-1)?.[1];
      return pid !== undefined && processState(Number(pid)) === 'T' ? Number(pid) : undefined;
    },
    180_000,
    "a's build to stop inside its swap",
  );
  noteStopped(buildPid);
  signal(a.child.pid!, 'SIGSTOP');

  // b takes the lease once the swap's hold on the row and a's lease run out, builds a's task, then a newer publish.
  await eventually(() => (/build lease taken by b/.test(b.output()) ? true : undefined), 90_000, 'b to take the lease');
  expect((await finalState(b, first)).status).toBe('complete');
  const second = await publish(b, slug, { ...sampleRecordAs(slug), record_revision: 'second' });
  expect((await finalState(b, second)).status).toBe('complete');
  expect(await liveRevision(b, slug)).toBe('second');

  // a's build process goes on from inside its swap, a still stopped: its older site must not go in.
  signal(buildPid, 'SIGCONT');
  await eventually(() => (['Z', undefined].includes(processState(buildPid)) ? true : undefined), 120_000, "a's build process to end");
  expect(await liveRevision(b, slug)).toBe('second');

  // a resumes, finds its lease gone and says why its build put nothing in.
  signal(a.child.pid!, 'SIGCONT');
  await eventually(() => (/build #\d+ stopped/.test(a.output()) ? true : undefined), 60_000, 'a to give up its build');
  expect(a.output()).toMatch(
    /was let go while this build was stopped, and may have passed to another instance, before its site was swapped in/,
  );
  for (const on of [a, b]) expect(await liveRevision(on, slug)).toBe('second');
  expect(await health(a)).toMatchObject({ build_lease: { holder: 'b', held_here: false } });
}, 480_000);
