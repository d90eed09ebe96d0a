import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTaskWatchers, LONG_POLL_CAP_SECONDS, parseWait } from '../../../src/lib/publish/long-poll.ts';

describe('parseWait', () => {
  it('reads seconds, fractions allowed, and waits not at all without the parameter', () => {
    expect(parseWait(null)).toEqual({ ok: true, waitMs: 0 });
    expect(parseWait('0')).toEqual({ ok: true, waitMs: 0 });
    expect(parseWait('12')).toEqual({ ok: true, waitMs: 12_000 });
    expect(parseWait('0.25')).toEqual({ ok: true, waitMs: 250 });
  });

  it('caps the wait at 50 seconds', () => {
    expect(LONG_POLL_CAP_SECONDS).toBe(50);
    expect(parseWait('50')).toEqual({ ok: true, waitMs: 50_000 });
    expect(parseWait('51')).toEqual({ ok: true, waitMs: 50_000 });
    expect(parseWait('999999999999')).toEqual({ ok: true, waitMs: 50_000 });
  });

  it('caps at a smaller cap when given one', () => {
    expect(parseWait('10', 0.2)).toEqual({ ok: true, waitMs: 200 });
  });

  it('refuses anything but a non-negative number, saying what it expected', () => {
    for (const raw of ['', '-1', 'abc', '1e3', 'Infinity', 'NaN', ' 5', '5s', '.5']) {
      const result = parseWait(raw);
      expect(result.ok, raw).toBe(false);
    }
    expect(parseWait('soon')).toEqual({
      ok: false,
      message: 'wait: expected a number of seconds, 0 or more (a wait over 50 is capped), got "soon"',
    });
  });
});

describe('createTaskWatchers', () => {
  // The clock is Vitest's: a wait ends when the test moves time on, never by sleeping.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Whether `promise` has settled, without waiting for it. */
  const settled = async (promise: Promise<void>) => {
    let done = false;
    void promise.then(() => (done = true));
    await Promise.resolve();
    return done;
  };

  it('wakes a waiter as soon as its task is notified, with no time passing', async () => {
    const watchers = createTaskWatchers();
    const waiting = watchers.wait('h1', 10_000);
    expect(watchers.waiting).toBe(1);
    expect(await settled(waiting)).toBe(false);
    watchers.notify('h1');
    expect(await settled(waiting)).toBe(true);
    expect(watchers.waiting).toBe(0);
  });

  it('lets a waiter go when its time is up, and ignores other handles', async () => {
    const watchers = createTaskWatchers();
    const waiting = watchers.wait('h1', 60);
    watchers.notify('h2');
    await vi.advanceTimersByTimeAsync(59);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
    expect(watchers.waiting).toBe(0);
  });

  it('lets a waiter go when its signal aborts (the client left) or on releaseAll (shutdown)', async () => {
    const watchers = createTaskWatchers();
    const gone = new AbortController();
    const first = watchers.wait('h1', 10_000, gone.signal);
    const second = watchers.wait('h1', 10_000);
    gone.abort();
    await first;
    expect(watchers.waiting).toBe(1);
    watchers.releaseAll();
    await second;
    expect(watchers.waiting).toBe(0);
  });

  it('does not wait at all for a zero wait', async () => {
    const watchers = createTaskWatchers();
    await watchers.wait('h1', 0);
    expect(watchers.waiting).toBe(0);
  });
});
