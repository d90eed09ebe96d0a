import { describe, expect, it } from 'vitest';
import { createEventDeduplicator } from '../../../src/lib/webhooks/dedupe.ts';

describe('createEventDeduplicator', () => {
  it('processes an event once however many deliveries carry its handle', async () => {
    const dedupe = createEventDeduplicator();
    const processed: string[] = [];
    const results = [];
    for (const handle of ['h1', 'h1', 'h2', 'h1']) {
      results.push(await dedupe.processOnce(handle, () => processed.push(handle)));
    }
    expect(processed).toEqual(['h1', 'h2']);
    expect(results.map((result) => result.duplicate)).toEqual([false, true, false, true]);
  });

  it('forgets a failed run so the next retry processes the event', async () => {
    const dedupe = createEventDeduplicator();
    await expect(dedupe.processOnce('h1', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await dedupe.processOnce('h1', () => undefined)).toEqual({ duplicate: false });
  });

  it('makes a concurrent delivery of the same event wait for the first instead of processing it again', async () => {
    const dedupe = createEventDeduplicator();
    let runs = 0;
    let finish = () => {};
    const first = dedupe.processOnce(
      'h1',
      () =>
        new Promise<void>((resolve) => {
          runs += 1;
          finish = resolve;
        }),
    );
    const second = dedupe.processOnce('h1', () => {
      runs += 1;
    });
    await Promise.resolve();
    finish();
    expect(await Promise.all([first, second])).toEqual([{ duplicate: false }, { duplicate: true }]);
    expect(runs).toBe(1);
  });

  it('retries the event of a concurrent delivery whose first run failed, even when processOnce is used on its own', async () => {
    const { processOnce } = createEventDeduplicator();
    const processed: string[] = [];
    const first = processOnce('h1', () => Promise.reject(new Error('database down')));
    const second = processOnce('h1', () => processed.push('second'));
    await expect(first).rejects.toThrow('database down');
    expect(await second).toEqual({ duplicate: false });
    expect(processed).toEqual(['second']);
  });

  it('remembers only the most recent handles up to its capacity', async () => {
    const dedupe = createEventDeduplicator({ capacity: 2 });
    for (const handle of ['h1', 'h2', 'h3']) await dedupe.processOnce(handle, () => undefined);
    expect(await dedupe.processOnce('h3', () => undefined)).toEqual({ duplicate: true });
    expect(await dedupe.processOnce('h1', () => undefined)).toEqual({ duplicate: false });
  });
});
