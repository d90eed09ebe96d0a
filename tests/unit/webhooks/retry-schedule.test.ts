import { describe, expect, it } from 'vitest';
import { nextAttemptAt } from '../../../src/lib/webhooks/retry-schedule.ts';

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
