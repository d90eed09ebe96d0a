// One event's delivery and its attempts: the types every part shares, the one mapping from stored
// rows (both store adapters read the same columns) and the one mapping to the API's wire form.
import type { EntryState } from './retry-schedule.ts';

/** How an attempt ended; `in_flight` while sent and unanswered, `interrupted` when its instance stopped before recording the answer. */
export type AttemptOutcome = 'in_flight' | 'accepted' | 'failed' | 'interrupted';

/** One event waiting for, or done with, delivery. */
export interface OutboxEntry {
  id: number;
  organizationId: string;
  callbackUrl: string;
  event: string;
  handle: string;
  tool: string;
  state: EntryState;
  attemptsMade: number;
  /** Attempts made before the current round (the first, or since the last resend). */
  attemptsBeforeRound: number;
  /** Attempts of the current round before giving up: 5, or 1 for a test event. */
  attemptLimit: number;
  /** ISO time the next attempt is due; null once accepted or given up. */
  nextAttemptAt: string | null;
  createdAt: string;
}

/** One attempt at delivering an event: what was sent and how the receiver answered. */
export interface Attempt {
  id: number;
  entryId: number;
  /** 1 for the event's first attempt; a resend's round goes on counting (6, 7, …). */
  attemptNumber: number;
  /** The X-Svc-Delivery id sent. */
  deliveryId: string;
  organizationId: string;
  event: string;
  handle: string;
  callbackUrl: string;
  /** Headers sent, with the signature's `v1` redacted. */
  requestHeaders: Record<string, string>;
  requestBody: string;
  outcome: AttemptOutcome;
  /** HTTP status, or null when no answer arrived. */
  status: number | null;
  /** Why the attempt failed short of a status (timeout, connection, policy), or a redirect note. */
  error: string | null;
  /** The first bytes of the receiver's answer. */
  responseBodyStart: string | null;
  /** The receiver's Retry-After on a 429 or 503, as sent: recorded only, the next attempt keeps the fixed schedule. */
  retryAfter: string | null;
  durationMs: number | null;
  startedAt: string;
  finishedAt: string | null;
}

/** An event's delivery: its entry with every attempt made at it, oldest first. */
export interface Delivery extends OutboxEntry {
  attempts: Attempt[];
}

/** Which deliveries to list. */
export interface DeliveryFilter {
  handle?: string;
  event?: string;
  state?: EntryState;
}

/** What a sent attempt's answer was, as it is recorded. */
export type AttemptResult = Pick<Attempt, 'status' | 'error' | 'retryAfter'> & {
  /** True for any 2xx answer. */
  accepted: boolean;
  responseBodyStart: string;
  durationMs: number;
};

/** An entry row as both stores return it (times in epoch milliseconds; database/ reads PostgreSQL's BIGINT as numbers). */
export interface EntryRow {
  id: number;
  organization_id: string;
  callback_url: string;
  event: string;
  handle: string;
  tool: string;
  state: EntryState;
  attempts_made: number;
  schedule_base: number;
  attempt_limit: number;
  next_attempt_at: number | null;
  created_at: number;
}

/** An attempt row joined with its entry's columns, as both stores return it. */
export interface AttemptRow {
  id: number;
  entry_id: number;
  attempt_number: number;
  delivery_id: string;
  organization_id: string;
  event: string;
  handle: string;
  callback_url: string;
  request_headers: string;
  request_body: string;
  outcome: AttemptOutcome;
  status: number | null;
  error: string | null;
  response_body_start: string | null;
  retry_after: string | null;
  duration_ms: number | null;
  started_at: number;
  finished_at: number | null;
}

/** The entry columns both stores select, of the table named `table` when given. */
export function entryColumns(table?: string): string {
  const columns = [
    'id',
    'organization_id',
    'callback_url',
    'event',
    'handle',
    'tool',
    'state',
    'attempts_made',
    'schedule_base',
    'attempt_limit',
    'next_attempt_at',
    'created_at',
  ];
  return columns.map((column) => (table === undefined ? column : `${table}.${column}`)).join(', ');
}

/** The attempt columns both stores select, joined with the entry as `o`. */
export const ATTEMPT_COLUMNS = `a.id, a.entry_id, a.attempt_number, a.delivery_id, o.organization_id, o.event, o.handle, o.callback_url,
  a.request_headers, a.request_body, a.outcome, a.status, a.error, a.response_body_start, a.retry_after, a.duration_ms,
  a.started_at, a.finished_at`;

/** Returns the entry a stored row holds. */
export function entryFromRow(row: EntryRow): OutboxEntry {
  return {
    id: row.id,
    organizationId: row.organization_id,
    callbackUrl: row.callback_url,
    event: row.event,
    handle: row.handle,
    tool: row.tool,
    state: row.state,
    attemptsMade: row.attempts_made,
    attemptsBeforeRound: row.schedule_base,
    attemptLimit: row.attempt_limit,
    nextAttemptAt: isoOrNull(row.next_attempt_at),
    createdAt: iso(row.created_at),
  };
}

/** Returns the attempt a stored row holds. */
export function attemptFromRow(row: AttemptRow): Attempt {
  return {
    id: row.id,
    entryId: row.entry_id,
    attemptNumber: row.attempt_number,
    deliveryId: row.delivery_id,
    organizationId: row.organization_id,
    event: row.event,
    handle: row.handle,
    callbackUrl: row.callback_url,
    requestHeaders: JSON.parse(row.request_headers) as Record<string, string>,
    requestBody: row.request_body,
    outcome: row.outcome,
    status: row.status,
    error: row.error,
    responseBodyStart: row.response_body_start,
    retryAfter: row.retry_after,
    durationMs: row.duration_ms,
    startedAt: iso(row.started_at),
    finishedAt: isoOrNull(row.finished_at),
  };
}

/** Delivery states as the API names them. */
const WIRE_STATES = { pending: 'pending', accepted: 'delivered', given_up: 'given_up' } as const satisfies Record<EntryState, string>;

/** The delivery state an API `outcome` names, or undefined for a name the API does not use. */
export function stateFromWire(outcome: string): EntryState | undefined {
  return (Object.keys(WIRE_STATES) as EntryState[]).find((state) => WIRE_STATES[state] === outcome);
}

/** One event's delivery as the API shows it, in wire naming: its state, and every attempt (signatures' v1 already redacted). */
export function deliveryToWire(delivery: Delivery) {
  return {
    id: delivery.id,
    handle: delivery.handle,
    event: delivery.event,
    tool: delivery.tool,
    callback_url: delivery.callbackUrl,
    outcome: WIRE_STATES[delivery.state],
    attempts_made: delivery.attemptsMade,
    next_attempt_at: delivery.nextAttemptAt,
    created_at: delivery.createdAt,
    attempts: delivery.attempts.map(attemptToWire),
  };
}

/** One event's delivery as `GET /api/webhooks/deliveries` sends it. */
export type WireDelivery = ReturnType<typeof deliveryToWire>;

/** One attempt as the API sends it. */
export type WireAttempt = WireDelivery['attempts'][number];

function attemptToWire(attempt: Attempt) {
  return {
    delivery_id: attempt.deliveryId,
    attempt_number: attempt.attemptNumber,
    outcome: attempt.outcome,
    status: attempt.status,
    error: attempt.error,
    retry_after: attempt.retryAfter,
    request: { headers: attempt.requestHeaders, body: attempt.requestBody },
    response_body_start: attempt.responseBodyStart,
    duration_ms: attempt.durationMs,
    started_at: attempt.startedAt,
    finished_at: attempt.finishedAt,
  };
}

/**
 * One log line for a recorded attempt, free of secrets and signatures.
 * @example describeAttempt(attempt) → 'webhook 6f1c… attempt 2: failed, 503, Retry-After 30, 41 ms'
 */
export function describeAttempt(attempt: Attempt): string {
  const answer =
    attempt.status === null
      ? attempt.error
      : `${attempt.status}${attempt.error === null ? '' : ` (${attempt.error})`}${attempt.retryAfter === null ? '' : `, Retry-After ${attempt.retryAfter}`}`;
  return `webhook ${attempt.handle} attempt ${attempt.attemptNumber}: ${attempt.outcome}, ${answer}, ${attempt.durationMs} ms`;
}

function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

function isoOrNull(epochMs: number | null): string | null {
  return epochMs === null ? null : iso(epochMs);
}
