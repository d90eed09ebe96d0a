import { describe, expect, it } from 'vitest';
import { nextAttemptAfter, nextAttemptAt, parseRetryAfter } from '../../../src/lib/webhooks/retry-schedule.ts';

const MINUTE = 60_000;

describe('nextAttemptAt', () => {
  it('waits 1 min, 5 min, 30 min and 2 h after the first four failures', () => {
    expect([1, 2, 3, 4].map((attempt) => nextAttemptAt(attempt, 1_000))).toEqual([
      1_000 + MINUTE,
      1_000 + 5 * MINUTE,
      1_000 + 30 * MINUTE,
      1_000 + 120 * MINUTE,
    ]);
  });

  it('gives up after the fifth failure', () => {
    expect(nextAttemptAt(5, 1_000)).toBeNull();
  });
});

describe('nextAttemptAfter', () => {
  it('honours a Retry-After under twice the scheduled delay, sooner or later than the schedule', () => {
    expect(nextAttemptAfter(1, 0, 5_000)).toEqual({ at: 5_000, retryAfterHonoured: true });
    expect(nextAttemptAfter(1, 0, 119_999)).toEqual({ at: 119_999, retryAfterHonoured: true });
  });

  it('keeps the schedule when Retry-After asks for twice its delay or more, or is absent', () => {
    expect(nextAttemptAfter(1, 0, 120_000)).toEqual({ at: MINUTE, retryAfterHonoured: false });
    expect(nextAttemptAfter(2, 0, null)).toEqual({ at: 5 * MINUTE, retryAfterHonoured: false });
  });

  it('gives up after the fifth failure whatever Retry-After says', () => {
    expect(nextAttemptAfter(5, 0, 1_000)).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates as milliseconds from now', () => {
    expect(parseRetryAfter('120', 0)).toBe(120_000);
    expect(parseRetryAfter(' 7 ', 0)).toBe(7_000);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:45 GMT', 15_000)).toBe(30_000);
  });

  it('reads a date in the past as now, and anything else as absent', () => {
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:45 GMT', 60_000)).toBe(0);
    for (const value of [undefined, '', 'soon', '-5', '1.5', 'Thursday']) expect(parseRetryAfter(value, 0)).toBeNull();
  });
});
