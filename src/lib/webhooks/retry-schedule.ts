/**
 * Delay before each attempt, by attempt number minus one (spec section 8): the one list of retry
 * delays; the outbox, the attempt limit and /docs/webhooks/ all read it.
 */
export const RETRY_DELAYS_MS: readonly number[] = [0, 60_000, 300_000, 1_800_000, 7_200_000];

/** Attempts an event gets before the service gives up (spec section 8). */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;

/**
 * Returns when the next attempt is due after attempt `failedAttempt` failed at `failedAt`
 * (epoch ms), or null when that was the last attempt.
 * @example nextAttemptAt(1, 0) → 60000; nextAttemptAt(5, 0) → null
 */
export function nextAttemptAt(failedAttempt: number, failedAt: number): number | null {
  const delay = RETRY_DELAYS_MS[failedAttempt];
  return delay === undefined ? null : failedAt + delay;
}

/** When the next attempt is due, and whether a receiver's Retry-After set it. */
export interface NextAttempt {
  at: number;
  retryAfterHonoured: boolean;
}

/**
 * Returns the next attempt after a failure, honouring a receiver's Retry-After (milliseconds) when
 * it asks for less than twice the scheduled delay; null when that was the last attempt.
 * @example nextAttemptAfter(1, 0, 90_000) → { at: 90000, retryAfterHonoured: true }; nextAttemptAfter(1, 0, 600_000) → { at: 60000, retryAfterHonoured: false }
 */
export function nextAttemptAfter(failedAttempt: number, failedAt: number, retryAfterMs: number | null): NextAttempt | null {
  const scheduled = nextAttemptAt(failedAttempt, failedAt);
  if (scheduled === null) return null;
  if (retryAfterMs !== null && retryAfterMs < 2 * (scheduled - failedAt)) return { at: failedAt + retryAfterMs, retryAfterHonoured: true };
  return { at: scheduled, retryAfterHonoured: false };
}

/**
 * Reads a Retry-After header value (RFC 9110: delay-seconds or an HTTP date) as milliseconds from
 * `now`; null when absent or unreadable. A date in the past means now.
 * @example parseRetryAfter('120', 0) → 120000; parseRetryAfter('soon', 0) → null
 */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
