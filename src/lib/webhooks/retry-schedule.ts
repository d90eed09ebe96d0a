/**
 * Delay before each attempt, by attempt number minus one (spec section 8): the one list of retry
 * delays; the outbox, the attempt limit and /docs/webhooks/ all read it.
 */
export const RETRY_DELAYS_MS: readonly number[] = [0, 60_000, 300_000, 1_800_000, 7_200_000];

/** Attempts an event gets before the service gives up (spec section 8). */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length;

/** Where an event's delivery stands: still being attempted, accepted by the receiver, or given up. */
export type EntryState = 'pending' | 'accepted' | 'given_up';

/** How an attempt ended, as far as the schedule cares. */
export type AttemptEnd =
  | { outcome: 'accepted' }
  /** Any other answer, or none; a Retry-After in it is recorded with the attempt but does not move the next one. */
  | { outcome: 'failed' }
  /** Its instance stopped before the answer was recorded; rescheduled as a failure from when it started. */
  | { outcome: 'interrupted' };

/** What an attempt's end means for its event: the store persists exactly this. */
export interface RetryDecision {
  state: EntryState;
  /** Epoch ms the next attempt is due; null once accepted or given up. */
  nextAttemptAt: number | null;
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
 * Decides what follows an attempt: accepted ends the delivery; a failure is retried on the fixed
 * schedule until the round's last attempt, after which the delivery is given up. Nothing the
 * receiver answered moves the next attempt (spec section 8: fixed backoff).
 * @example decideAfterAttempt({ numberInRound: 1, attemptLimit: 5, endedAt: 0 }, { outcome: 'failed' }) → { state: 'pending', nextAttemptAt: 60000 }
 */
export function decideAfterAttempt(attempt: AttemptInRound, end: AttemptEnd): RetryDecision {
  if (end.outcome === 'accepted') return { state: 'accepted', nextAttemptAt: null };
  const delay = attempt.numberInRound < attempt.attemptLimit ? RETRY_DELAYS_MS[attempt.numberInRound] : undefined;
  if (delay === undefined) return { state: 'given_up', nextAttemptAt: null };
  return { state: 'pending', nextAttemptAt: attempt.endedAt + delay };
}
