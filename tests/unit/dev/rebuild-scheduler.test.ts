import { describe, expect, it } from 'vitest';
import { rebuildScheduler, type Timers } from '../../../src/lib/dev/rebuild-scheduler.ts';

/** A clock that moves only when told, running what falls due in order. */
function testClock(): Timers & { advance(ms: number): void } {
  let now = 0;
  let next = 0;
  const due = new Map<number, { at: number; run: () => void }>();
  return {
    setTimeout(run, ms) {
      due.set(++next, { at: now + ms, run });
      return next;
    },
    clearTimeout(timer) {
      due.delete(timer as number);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const [id, first] = [...due].filter(([, timer]) => timer.at <= until).sort(([, a], [, b]) => a.at - b.at)[0] ?? [];
        if (id === undefined || !first) break;
        due.delete(id);
        now = first.at;
        first.run();
      }
      now = until;
    },
  };
}

/** A scheduler on a test clock whose rebuilds finish only when the test says so, each kept with its changes. */
function scheduled() {
  const clock = testClock();
  const builds: { changes: string[]; finish: () => void }[] = [];
  const rebuild = (changes: string[]) =>
    new Promise<void>((resolve) => {
      builds.push({ changes, finish: resolve });
    });
  return { clock, builds, scheduler: rebuildScheduler({ quietMs: 150, timers: clock, rebuild }) };
}

/** Lets promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('rebuildScheduler', () => {
  it('rebuilds once for a burst of changes, after the files have been still for the quiet time', async () => {
    const { clock, builds, scheduler } = scheduled();
    scheduler.notice('records/a.svc.json');
    clock.advance(100);
    scheduler.notice('records/a.svc.json');
    clock.advance(100);
    scheduler.notice('records/b.tech.json');
    clock.advance(149);
    expect(builds).toEqual([]);
    clock.advance(1);
    expect(builds.map((build) => build.changes)).toEqual([['records/a.svc.json', 'records/a.svc.json', 'records/b.tech.json']]);
  });

  it('holds changes noticed during a rebuild for exactly one more rebuild after it', async () => {
    const { clock, builds, scheduler } = scheduled();
    scheduler.notice('src/a.ts');
    clock.advance(150);
    scheduler.notice('records/a.svc.json');
    scheduler.notice('records/b.svc.json');
    clock.advance(1000);
    expect(builds).toHaveLength(1);
    builds[0]!.finish();
    await settle();
    expect(builds.map((build) => build.changes)).toEqual([['src/a.ts'], ['records/a.svc.json', 'records/b.svc.json']]);
    builds[1]!.finish();
    await settle();
    expect(builds).toHaveLength(2);
  });

  it('waits for a burst still going when a rebuild ends', async () => {
    const { clock, builds, scheduler } = scheduled();
    scheduler.notice('a');
    clock.advance(150);
    scheduler.notice('b');
    builds[0]!.finish();
    await settle();
    expect(builds).toHaveLength(1);
    clock.advance(150);
    expect(builds.map((build) => build.changes)).toEqual([['a'], ['b']]);
  });

  it('builds at once when asked (the first build), and not twice at a time', async () => {
    const { builds, scheduler } = scheduled();
    const first = scheduler.rebuildNow();
    const again = scheduler.rebuildNow();
    expect(builds.map((build) => build.changes)).toEqual([[]]);
    builds[0]!.finish();
    await Promise.all([first, again]);
  });

  it('starts nothing once closed, and closing waits for the rebuild that runs', async () => {
    const { clock, builds, scheduler } = scheduled();
    scheduler.notice('a');
    clock.advance(150);
    scheduler.notice('b');
    let closed = false;
    const closing = scheduler.close().then(() => (closed = true));
    await settle();
    expect(closed).toBe(false);
    builds[0]!.finish();
    await closing;
    scheduler.notice('c');
    clock.advance(1000);
    expect(builds).toHaveLength(1);
  });
});
