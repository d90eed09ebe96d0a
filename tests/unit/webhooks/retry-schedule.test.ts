import { describe, expect, it } from 'vitest';
import { decideAfterAttempt, MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../../src/lib/webhooks/retry-schedule.ts';

const MINUTE = 60_000;
const failed = { outcome: 'failed' } as const;
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
      expect(decideAfterAttempt(round(number), { outcome: 'accepted' })).toEqual({ state: 'accepted', nextAttemptAt: null });
  });

  it('retries the first four failures exactly 1 min, 5 min, 30 min and 2 h after each ended', () => {
    expect([1, 2, 3, 4].map((number) => decideAfterAttempt(round(number), failed))).toEqual(
      [MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE].map((delay) => ({ state: 'pending', nextAttemptAt: 1_000 + delay })),
    );
  });

  it('gives up after the last attempt of the round', () => {
    expect(decideAfterAttempt(round(5), failed)).toEqual({ state: 'given_up', nextAttemptAt: null });
    expect(decideAfterAttempt(round(1, 1_000, 1), failed)).toEqual({ state: 'given_up', nextAttemptAt: null });
  });

  it('reschedules an interrupted attempt as a failure from when it started', () => {
    expect(decideAfterAttempt(round(2, 7_000), { outcome: 'interrupted' })).toEqual({
      state: 'pending',
      nextAttemptAt: 7_000 + 5 * MINUTE,
    });
  });

  it('counts within the round, so a resend gets the whole schedule again', () => {
    expect(decideAfterAttempt(round(1, 0), failed)).toEqual({ state: 'pending', nextAttemptAt: MINUTE });
  });
});
