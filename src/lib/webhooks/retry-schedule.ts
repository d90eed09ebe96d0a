/** Delay before each attempt, by attempt number minus one: immediate, 1 min, 5 min, 30 min, 2 h (spec section 8). */
const RETRY_DELAYS_MS: readonly number[] = [0, 60_000, 300_000, 1_800_000, 7_200_000];

/**
 * Returns when the next attempt is due after attempt `failedAttempt` failed at `failedAt`
 * (epoch ms), or null when that was the last attempt.
 * @example nextAttemptAt(1, 0) → 60000; nextAttemptAt(5, 0) → null
 */
export function nextAttemptAt(failedAttempt: number, failedAt: number): number | null {
  const delay = RETRY_DELAYS_MS[failedAttempt];
  return delay === undefined ? null : failedAt + delay;
}
