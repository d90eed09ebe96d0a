// A builder that hangs while holding its database connection (SIGSTOP: a frozen machine, a stuck
// event loop) keeps its connection open, so only the lease running out frees the build: the other
// instance takes over within 30 s and finishes every task; the hung one, resumed, changes nothing.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InstancePair, processSignals, processState, startInstancePair } from './instances-support.ts';
import { call, eventually, sampleRecordAs } from './support.ts';

let pair: InstancePair;
const { signal, resumeAll } = processSignals();

/** The published record_revision of a garment's commerce JSON, as instance `on` serves it. */
async function liveRevision(on: { url: string }, slug: string): Promise<string> {
  const answer = await call(on.url, `/garments/${slug}/svc.json`);
  expect(answer.status, slug).toBe(200);
  return answer.json().record_revision;
}

beforeAll(async () => {
  pair = await startInstancePair('instances-hung-');
}, 120_000);

afterAll(async () => {
  resumeAll();
  await pair?.stop();
});

describe('a builder that hangs mid-build', () => {
  it('loses the lease within 30 s to the other instance, which finishes its tasks; resumed, it swaps nothing in and sends nothing', async () => {
    const { a, b, acme, publish, finalState, receivedEvents, recordedDeliveries, health, workspace } = pair;
    const slugs = Array.from({ length: 3 }, (_, i) => `hung-builder-${i}`);
    const handles = await Promise.all(slugs.map((slug) => publish(b, slug, { ...sampleRecordAs(slug), record_revision: 'first' })));

    // a gathers them into a build (or two, as they arrive); once its latest build process has read their records and
    // written their pages (its new site holds them as they are now), stop a and that process where they are, before the swap.
    const buildPid = await eventually(
      () => {
        const pid = [...a.output().matchAll(/site build running as process (\d+)/g)].at(-1)?.[1];
        const staging = `${workspace.outDir}.staging-${pid}`;
        return pid !== undefined && slugs.every((slug) => existsSync(path.join(staging, 'garments', slug, 'svc.json')))
          ? Number(pid)
          : undefined;
      },
      180_000,
      "a's build to write their pages",
    ).catch((error: Error) => {
      throw new Error(`${error.message}; a printed:\n${a.output().slice(-3000)}`);
    });
    signal(a.child.pid!, 'SIGSTOP');
    signal(buildPid, 'SIGSTOP');
    const stoppedAt = Date.now();
    expect(existsSync(`${workspace.outDir}.staging-${buildPid}`), 'stopped before its swap').toBe(true);
    const unfinished = await Promise.all(
      handles.map(async (handle) => !(await call(b.url, `/api/generations/${handle}`, { key: acme.key })).json().done),
    );
    expect(unfinished).toContain(true);

    // a's connections stay open; b takes the lease once it runs out, and says whose it was.
    const taken = await eventually(
      () => /^(\S+) build lease taken by b \(term \d+; a's lease ran out\)/m.exec(b.output())?.[1],
      60_000,
      'b to take the lease',
    );
    expect(Date.parse(taken) - stoppedAt).toBeLessThan(30_000);
    expect(await health(b)).toMatchObject({ build_lease: { holder: 'b', held_here: true } });

    // b runs a's tasks again from their records and delivers each event once.
    const states = await Promise.all(handles.map((handle) => finalState(b, handle)));
    expect(states.map((state) => state.status)).toEqual(['complete', 'complete', 'complete']);
    // A newer publish of one of them, built by b: what a's stopped build must not undo.
    const newer = await publish(b, slugs[0]!, { ...sampleRecordAs(slugs[0]!), record_revision: 'second' });
    expect((await finalState(b, newer)).status).toBe('complete');
    expect(await liveRevision(b, slugs[0]!)).toBe('second');

    // a's build process goes on first (a's own event loop still stopped) and ends without swapping its older site in.
    signal(buildPid, 'SIGCONT');
    await eventually(() => (['Z', undefined].includes(processState(buildPid)) ? true : undefined), 180_000, "a's build process to end");
    expect(await liveRevision(b, slugs[0]!)).toBe('second');

    // a resumes: it finds its lease gone and leaves the records folder, the site and the tasks as b left them.
    signal(a.child.pid!, 'SIGCONT');
    await eventually(() => (/build lease lost by a/.test(a.output()) ? true : undefined), 30_000, 'a to notice its lease is gone');
    await eventually(() => (/build #\d+ stopped/.test(a.output()) ? true : undefined), 30_000, 'a to give up its build');
    expect(a.output(), a.output()).toMatch(/passed to another instance before its site was swapped in; the site was left as it was/);
    const recordFile = path.join(workspace.recordsDir, `${slugs[0]}.svc.json`);
    expect(JSON.parse(readFileSync(recordFile, 'utf8')).record_revision).toBe('second');
    for (const on of [a, b]) expect(await liveRevision(on, slugs[0]!)).toBe('second');
    expect(await health(a)).toMatchObject({ status: 'ok', build_lease: { holder: 'b', held_here: false } });

    const all = [...handles, newer];
    expect([...(await receivedEvents(all)).values()]).toEqual([1, 1, 1, 1]);
    expect(await recordedDeliveries(a, all)).toMatchObject(Array(all.length).fill({ outcome: 'delivered', attempts_made: 1 }));
    // a goes on taking publishes and answering polls; b builds them.
    const later = await publish(a, slugs[1]!, { ...sampleRecordAs(slugs[1]!), record_revision: 'after-resume' });
    expect((await finalState(a, later)).status).toBe('complete');
    expect(await liveRevision(a, slugs[1]!)).toBe('after-resume');
    expect([...(await receivedEvents(all)).values()]).toEqual([1, 1, 1, 1]);
  }, 480_000);
});
