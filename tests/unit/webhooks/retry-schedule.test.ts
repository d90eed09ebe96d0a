import { describe, expect, it } from 'vitest';
import { decideAfterAttempt, MAX_ATTEMPTS, parseRetryAfter, RETRY_DELAYS_MS } from '../../../src/lib/webhooks/retry-schedule.ts';

const MINUTE = 60_000;
const failed = (retryAfter: string | null = null) => ({ outcome: 'failed', retryAfter }) as const;
const round = (numberInRound: number, endedAt = 1_000, attemptLimit = MAX_ATTEMPTS) => ({ numberInRound, attemptLimit, endedAt });

describe('RETRY_DELAYS_MS', () => {
  it('is the spec schedule: immediately, 1 min, 5 min, 30 min, 2 h', () => {
    expect(RETRY_DELAYS_MS).toEqual([0, MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE]);
    expect(MAX_ATTEMPTS).toBe(5);
  });
});

describe('decideAfterAttempt', () => {
  it('ends the delivery when the receiver accepts, whatever the attempt', () => {
    for (const number of [1, 5])
      expect(decideAfterAttempt(round(number), { outcome: 'accepted' })).toEqual({
        state: 'accepted',
        nextAttemptAt: null,
        retryAfterHonoured: false,
      });
  });

  it('retries the first four failures after 1 min, 5 min, 30 min and 2 h', () => {
    expect([1, 2, 3, 4].map((number) => decideAfterAttempt(round(number), failed()))).toEqual(
      [MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE].map((delay) => ({
        state: 'pending',
        nextAttemptAt: 1_000 + delay,
        retryAfterHonoured: false,
      })),
    );
  });

  it('gives up after the last attempt of the round, whatever Retry-After says', () => {
    expect(decideAfterAttempt(round(5), failed('1'))).toEqual({ state: 'given_up', nextAttemptAt: null, retryAfterHonoured: false });
    expect(decideAfterAttempt(round(1, 1_000, 1), failed())).toMatchObject({ state: 'given_up' });
  });

  it('honours a Retry-After under twice the scheduled delay, sooner or later than the schedule', () => {
    expect(decideAfterAttempt(round(1, 0), failed('5'))).toEqual({ state: 'pending', nextAttemptAt: 5_000, retryAfterHonoured: true });
    expect(decideAfterAttempt(round(1, 0), failed('119'))).toMatchObject({ nextAttemptAt: 119_000, retryAfterHonoured: true });
  });

  it('keeps the schedule when Retry-After asks for twice its delay or more, or cannot be read', () => {
    expect(decideAfterAttempt(round(1, 0), failed('120'))).toEqual({ state: 'pending', nextAttemptAt: MINUTE, retryAfterHonoured: false });
    expect(decideAfterAttempt(round(2, 0), failed('soon'))).toMatchObject({ nextAttemptAt: 5 * MINUTE, retryAfterHonoured: false });
  });

  it('reads Retry-After as an HTTP date relative to when the attempt ended', () => {
    const endedAt = Date.UTC(2026, 0, 1);
    const in45s = new Date(endedAt + 45_000).toUTCString();
    expect(decideAfterAttempt(round(1, endedAt), failed(in45s))).toMatchObject({
      nextAttemptAt: endedAt + 45_000,
      retryAfterHonoured: true,
    });
  });

  it('reschedules an interrupted attempt as a failure from when it started', () => {
    expect(decideAfterAttempt(round(2, 7_000), { outcome: 'interrupted' })).toEqual({
      state: 'pending',
      nextAttemptAt: 7_000 + 5 * MINUTE,
      retryAfterHonoured: false,
    });
  });

  it('counts within the round, so a resend gets the whole schedule again', () => {
    expect(decideAfterAttempt(round(1, 0), failed())).toMatchObject({ nextAttemptAt: MINUTE });
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
