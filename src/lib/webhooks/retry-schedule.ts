/**
 * Delay before each attempt, by attempt number minus one (spec section 8): the one list of retry
 * delays; the outbox, the attempt limit and /docs/webhooks/ all read it.
 */
export const RETRY_DELAYS_MS: readonly number[] = [0, 60_000, 300_000, 1_800_000, 7_200_000];

/** Attempts an event gets before the service gives up (spec section 8). */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;

/** The next attempt after attempt `failedAttempt` failed at `failedAt`, honouring a Retry-After (ms) under twice the delay; null after the last. */
function nextAttemptAfter(
  failedAttempt: number,
  failedAt: number,
  retryAfterMs: number | null,
): { at: number; retryAfterHonoured: boolean } | null {
  const delay = RETRY_DELAYS_MS[failedAttempt];
  if (delay === undefined) return null;
  if (retryAfterMs !== null && retryAfterMs < 2 * delay) return { at: failedAt + retryAfterMs, retryAfterHonoured: true };
  return { at: failedAt + delay, retryAfterHonoured: false };
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

/** Where an event's delivery stands: still being attempted, accepted by the receiver, or given up. */
export type EntryState = 'pending' | 'accepted' | 'given_up';

/** How an attempt ended, as far as the schedule cares. */
export type AttemptEnd =
  | { outcome: 'accepted' }
  /** `retryAfter`: the receiver's Retry-After header on a 429 or 503, as sent. */
  | { outcome: 'failed'; retryAfter: string | null }
  /** Its instance stopped before the answer was recorded; rescheduled as a failure from when it started. */
  | { outcome: 'interrupted' };

/** What an attempt's end means for its event: the store persists exactly this. */
export interface RetryDecision {
  state: EntryState;
  /** Epoch ms the next attempt is due; null once accepted or given up. */
  nextAttemptAt: number | null;
  /** Whether a Retry-After set `nextAttemptAt` (it asked for less than twice the scheduled delay). */
  retryAfterHonoured: boolean;
}

/** The attempt being decided on, within its event's current round (the first, or since the last resend). */
export interface AttemptInRound {
  /** 1 for the round's first attempt. */
  numberInRound: number;
  /** Attempts the round has: 5, or 1 for a test event. */
  attemptLimit: number;
  /** When the attempt ended (epoch ms); for an interrupted attempt, when it started. */
  endedAt: number;
}

/**
 * Decides what follows an attempt: accepted ends the delivery; a failure is retried on the schedule
 * (or sooner or later when Retry-After asks for less than twice its delay) until the round's last
 * attempt, after which the delivery is given up.
 * @example decideAfterAttempt({ numberInRound: 1, attemptLimit: 5, endedAt: 0 }, { outcome: 'failed', retryAfter: '30' }) → { state: 'pending', nextAttemptAt: 30000, retryAfterHonoured: true }
 */
export function decideAfterAttempt(attempt: AttemptInRound, end: AttemptEnd): RetryDecision {
  if (end.outcome === 'accepted') return { state: 'accepted', nextAttemptAt: null, retryAfterHonoured: false };
  const retryAfterMs = end.outcome === 'failed' ? parseRetryAfter(end.retryAfter ?? undefined, attempt.endedAt) : null;
  const next =
    attempt.numberInRound >= attempt.attemptLimit ? null : nextAttemptAfter(attempt.numberInRound, attempt.endedAt, retryAfterMs);
  if (next === null) return { state: 'given_up', nextAttemptAt: null, retryAfterHonoured: false };
  return { state: 'pending', nextAttemptAt: next.at, retryAfterHonoured: next.retryAfterHonoured };
}
