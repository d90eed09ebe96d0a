import { describe, expect, it, vi } from 'vitest';
import { createCoalescingQueue } from '../../../src/lib/publish/build-queue.ts';

/** A promise with its resolve function outside, to hold a batch open for as long as a test needs. */
function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** A fake build: records each batch and, when told to, stays open until released. */
function recordingRun() {
  const batches: string[][] = [];
  const gates: Array<ReturnType<typeof deferred>> = [];
  let holdNext = false;
  return {
    batches,
    gates,
    hold() {
      holdNext = true;
    },
    run: async (items: string[]) => {
      batches.push(items);
      if (!holdNext) return;
      const gate = deferred();
      gates.push(gate);
      await gate.promise;
    },
  };
}

describe('createCoalescingQueue', () => {
  it('runs items submitted together as one batch, in submission order', async () => {
    const fake = recordingRun();
    const queue = createCoalescingQueue({ run: fake.run, gatherMs: 20 });
    const results = await Promise.all(['a', 'b', 'c'].map((item) => queue.submit(item)));
    expect(results).toEqual([true, true, true]);
    expect(fake.batches).toEqual([['a', 'b', 'c']]);
    expect(queue.batchesStarted).toBe(1);
  });

  it('keeps gathering while items keep arriving, up to the longest gathering time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const fake = recordingRun();
      const queue = createCoalescingQueue({ run: fake.run, gatherMs: 200, maxGatherMs: 500 });
      const submitted: Promise<boolean>[] = [];
      // One item every 20 ms for 800 ms: the gap never reaches 200 ms, so only the cap starts a batch.
      for (let at = 0; at < 800; at += 20) {
        submitted.push(queue.submit(`item-${submitted.length}`));
        await vi.advanceTimersByTimeAsync(20);
      }
      await vi.runAllTimersAsync();
      await Promise.all(submitted);
      expect(fake.batches.flat()).toHaveLength(submitted.length);
      // The first batch starts at the 500 ms cap with 25 items; the rest arrive while it runs or after.
      expect(fake.batches[0]).toHaveLength(25);
      expect(fake.batches).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('puts every item that arrives while a batch runs into the one next batch', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const fake = recordingRun();
      fake.hold();
      const queue = createCoalescingQueue({ run: fake.run, gatherMs: 5 });
      const first = queue.submit('first');
      await vi.advanceTimersByTimeAsync(5);
      expect(fake.gates).toHaveLength(1);
      expect(queue.busy).toBe(true);
      const later = Array.from({ length: 19 }, (_, i) => queue.submit(`later-${i}`));
      // Nothing starts beside a running batch, however long it runs: no timer is even set.
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(fake.batches).toHaveLength(1);
      fake.gates[0]!.resolve();
      await vi.advanceTimersByTimeAsync(0);
      expect(fake.gates).toHaveLength(2);
      fake.gates[1]!.resolve();
      await Promise.all([first, ...later]);
      expect(fake.batches.map((batch) => batch.length)).toEqual([1, 19]);
      expect(queue.busy).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects the submitters of a batch that throws, and keeps running later batches', async () => {
    let calls = 0;
    const queue = createCoalescingQueue<string>({
      gatherMs: 1,
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('build crashed');
      },
    });
    await expect(queue.submit('a')).rejects.toThrow('build crashed');
    await expect(queue.submit('b')).resolves.toBe(true);
  });

  it('parks waiting items on close (submit resolves false) and waits for the running batch', async () => {
    const fake = recordingRun();
    fake.hold();
    const queue = createCoalescingQueue({ run: fake.run, gatherMs: 1 });
    const running = queue.submit('running');
    await expect.poll(() => fake.gates.length).toBe(1);
    const parked = queue.submit('parked');
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await expect(parked).resolves.toBe(false);
    expect(closed).toBe(false);
    fake.gates[0]!.resolve();
    await closing;
    await expect(running).resolves.toBe(true);
    await expect(queue.submit('after close')).resolves.toBe(false);
    expect(fake.batches).toEqual([['running']]);
  });
});
