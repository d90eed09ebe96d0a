// The outbox's state behind one asynchronous port, with an adapter per database: SQLite for one
// process (the default), PostgreSQL for several instances. Stores persist; the retry decision is
// made by the caller (retry-schedule.ts) and handed in. Time comes from the clock they are given.
import type { Attempt, AttemptResult, Delivery, DeliveryFilter, EntryRow, OutboxEntry } from './delivery-record.ts';
import { entryColumns, entryFromRow } from './delivery-record.ts';
import type { CompletionEvent } from './event-body.ts';
import type { RetryDecision } from './retry-schedule.ts';

/** Current time in epoch milliseconds. */
export type Clock = () => number;

/** An event as it is stored: the completion event and where to deliver it. */
export type OutboxEvent = CompletionEvent & { callbackUrl: string };

/** An entry claimed by one instance, with what it needs to send the event. */
export type ClaimedEntry = OutboxEntry & { dataJson: string };

/** An entry whose claim ran out; `attempt` is the attempt left in flight, if one was started. */
export interface ExpiredClaim {
  entry: OutboxEntry;
  attempt: Pick<Attempt, 'id' | 'attemptNumber' | 'startedAt'> | null;
}

/** An entry row with the attempt its claim left in flight, if any, as both stores select it. */
export type ExpiredClaimRow = EntryRow & { attempt_id: number | null; attempt_number: number | null; attempt_started_at: number | null };

/** Selects the pending entries whose claim ran out by `now`, the placeholder given (`?` or `$1`). */
export function expiredClaimsQuery(now: string): string {
  return `SELECT ${entryColumns('o')}, a.id AS attempt_id, a.attempt_number, a.started_at AS attempt_started_at
    FROM webhook_outbox o LEFT JOIN webhook_attempts a ON a.id = o.leased_attempt_id
    WHERE o.state = 'pending' AND o.lease_until <= ${now}`;
}

/** Returns the expired claim a row holds. */
export function expiredClaimFromRow(row: ExpiredClaimRow): ExpiredClaim {
  return {
    entry: entryFromRow(row),
    attempt:
      row.attempt_id === null
        ? null
        : { id: row.attempt_id, attemptNumber: row.attempt_number!, startedAt: new Date(row.attempt_started_at!).toISOString() },
  };
}

/** Why a resend was not scheduled, or the entry as rescheduled. */
export type ResendResult = { ok: true; entry: OutboxEntry } | { ok: false; reason: 'not_found' | 'in_flight' };

/** A page of a list, newest first: at most `limit` items with ids below `beforeId`. */
export interface Page {
  limit: number;
  beforeId?: number | undefined;
}

/** The outbox's durable state; every change is one transaction, and a claim belongs to one instance. */
export interface OutboxStore {
  /** Inserts a pending entry due now unless its handle exists; returns the entry and whether it is new. */
  insertEntry(event: OutboxEvent, attemptLimit: number): Promise<{ entry: OutboxEntry; created: boolean }>;
  /** Makes an organization's entry due now for a new round of attempts, unless it is claimed. */
  resend(organizationId: string, handle: string): Promise<ResendResult>;
  /** Returns the entry for a handle. */
  findEntry(handle: string): Promise<OutboxEntry | undefined>;
  /** Lists an organization's deliveries (entries with their attempts), newest first, filtered. */
  listDeliveries(organizationId: string, filter: DeliveryFilter, page: Page): Promise<Delivery[]>;
  /** Lists an organization's attempts, newest first. */
  listAttempts(organizationId: string, page: Page): Promise<Attempt[]>;
  /** Claims up to `limit` due, unclaimed entries for `owner` for `leaseMs`; no two owners get one entry. */
  claimDue(owner: string, leaseMs: number, limit: number): Promise<ClaimedEntry[]>;
  /** Records an attempt as in flight before it is sent; its id and number, or undefined when the claim was lost. */
  startAttempt(
    entryId: number,
    owner: string,
    request: Pick<Attempt, 'deliveryId' | 'requestHeaders' | 'requestBody'>,
  ): Promise<{ attemptId: number; attemptNumber: number } | undefined>;
  /**
   * Records an attempt's answer and persists `decision` for its entry in the same transaction:
   * accepted always; otherwise only while the attempt still holds the claim. Returns the attempt as recorded.
   */
  finishAttempt(attemptId: number, result: AttemptResult, decision: RetryDecision): Promise<Attempt>;
  /** Hands a claimed entry back unsent, no attempt counted, due again at `dueAt`. */
  postpone(entryId: number, owner: string, dueAt: number): Promise<void>;
  /** Lists entries whose claim ran out, with the attempt each left in flight. */
  expiredClaims(): Promise<ExpiredClaim[]>;
  /**
   * Settles one expired claim, unless another instance did first: an unanswered attempt is marked
   * interrupted and `decision` persisted; a claim with no attempt is released unchanged.
   */
  settleExpiredClaim(claim: ExpiredClaim, decision: RetryDecision | null): Promise<void>;
  close(): Promise<void>;
}

/** The error an interrupted attempt is recorded with. */
export const INTERRUPTED = 'interrupted: the worker stopped before the answer was recorded';
