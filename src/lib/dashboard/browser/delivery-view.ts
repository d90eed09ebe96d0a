// What the dashboard shows of the publish API's answers: deliveries as rows of words, refusals as
// sentences. Pure and free of Node and the DOM, so the page's script and the unit tests share it.
// Only types come from the service's modules: `import type` is erased, so the browser loads none of them.
import type { WireAttempt, WireDelivery } from '../../webhooks/delivery-record.ts';

/** A page of deliveries, newest first; `next_before` asks for the page after it, null on the last. */
export interface WireDeliveryPage {
  deliveries: WireDelivery[];
  next_before: number | null;
}

/** A time shown to people and the machine-readable value beside it. */
export interface TimeView {
  text: string;
  iso: string;
}

/** One attempt as the page lists it. */
export interface AttemptView {
  /** "Attempt 2". */
  title: string;
  /** One line: how the receiver answered, how long it took, when. */
  summary: string;
  when: TimeView;
  /** The X-Svc-Delivery id sent with this attempt. */
  deliveryId: string;
  /** The status, or why there was none (timeout, connection error). */
  answer: string;
  /** True when the receiver took it (2xx). */
  accepted: boolean;
  duration: string;
  retryAfter: string | null;
  /** The first bytes of the receiver's answer; null when nothing came back. */
  responseExcerpt: string | null;
  /** The headers sent, in the order sent (the signature's v1 redacted by the service). */
  headers: Array<[name: string, value: string]>;
  /** The exact body sent. */
  body: string;
}

/** One event's delivery as the page lists it. */
export interface DeliveryView {
  /** The delivery's number, for the next page's `before`. */
  id: number;
  event: string;
  handle: string;
  tool: string;
  callbackUrl: string;
  /** Delivered, awaiting retry (with when) or given up, in words. */
  state: string;
  stateKind: 'delivered' | 'pending' | 'given_up';
  created: TimeView;
  /** False while an attempt is in flight: the API refuses a resend then (409). */
  canResend: boolean;
  /** Oldest first, as the API sends them. */
  attempts: AttemptView[];
}

/**
 * Returns a time as the page shows it, in UTC to the second.
 * @example timeView('2026-11-29T20:10:03.412Z') → { text: '2026-11-29 20:10:03 UTC', iso: '2026-11-29T20:10:03.412Z' }
 */
export function timeView(iso: string): TimeView {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  return { text: match === null ? iso : `${match[1]} ${match[2]} UTC`, iso };
}

/** Returns what the page shows of one delivery and its attempts. */
export function deliveryView(delivery: WireDelivery): DeliveryView {
  return {
    id: delivery.id,
    event: delivery.event,
    handle: delivery.handle,
    tool: delivery.tool,
    callbackUrl: delivery.callback_url,
    state: stateText(delivery),
    stateKind: delivery.outcome,
    created: timeView(delivery.created_at),
    canResend: !delivery.attempts.some((attempt) => attempt.outcome === 'in_flight'),
    attempts: delivery.attempts.map(attemptView),
  };
}

/**
 * Returns the delivery's state in words.
 * @example stateText({ outcome: 'pending', next_attempt_at: '2026-11-29T20:15:00.000Z', … }) → 'Awaiting retry: next attempt at 2026-11-29 20:15:00 UTC'
 */
export function stateText(delivery: Pick<WireDelivery, 'outcome' | 'next_attempt_at' | 'attempts_made'>): string {
  if (delivery.outcome === 'delivered') return 'Delivered';
  if (delivery.outcome === 'given_up')
    return `Given up after ${delivery.attempts_made} ${delivery.attempts_made === 1 ? 'attempt' : 'attempts'}`;
  if (delivery.next_attempt_at === null) return 'Awaiting retry';
  return `Awaiting retry: next attempt at ${timeView(delivery.next_attempt_at).text}`;
}

/** Returns what the page shows of one attempt. */
export function attemptView(attempt: WireAttempt): AttemptView {
  const when = timeView(attempt.started_at);
  const answer = answerText(attempt);
  const duration = attempt.duration_ms === null ? 'not finished' : `${attempt.duration_ms} ms`;
  return {
    title: `Attempt ${attempt.attempt_number}`,
    summary: `${answer} · ${duration} · ${when.text}`,
    when,
    deliveryId: attempt.delivery_id,
    answer,
    accepted: attempt.outcome === 'accepted',
    duration,
    retryAfter: attempt.retry_after,
    responseExcerpt: attempt.response_body_start === null || attempt.response_body_start === '' ? null : attempt.response_body_start,
    headers: Object.entries(attempt.request.headers),
    body: attempt.request.body,
  };
}

/**
 * Returns how the receiver answered an attempt, in words.
 * @example answerText({ status: 503, error: null, outcome: 'failed', … }) → 'HTTP 503'
 * @example answerText({ status: null, error: 'timed out after 10000 ms', outcome: 'failed', … }) → 'No answer: timed out after 10000 ms'
 */
export function answerText(attempt: Pick<WireAttempt, 'status' | 'error' | 'outcome'>): string {
  if (attempt.status !== null) return `HTTP ${attempt.status}${attempt.error === null ? '' : ` (${attempt.error})`}`;
  if (attempt.outcome === 'in_flight') return 'Sent; waiting for the answer';
  if (attempt.outcome === 'interrupted') return `Interrupted${attempt.error === null ? '' : `: ${attempt.error}`}`;
  return `No answer: ${attempt.error ?? 'unknown failure'}`;
}

/**
 * Returns the query of `GET /api/webhooks/deliveries` for a handle filter and a page.
 * @example deliveriesQuery({ handle: ' 6F1C… ', before: 118 }) → '?limit=20&handle=6f1c…&before=118'
 */
export function deliveriesQuery({ handle, before, limit = 20 }: { handle?: string; before?: number | null; limit?: number }): string {
  const query = new URLSearchParams({ limit: String(limit) });
  const wanted = handle?.trim().toLowerCase() ?? '';
  if (wanted !== '') query.set('handle', wanted);
  if (before !== undefined && before !== null) query.set('before', String(before));
  return `?${query.toString()}`;
}

/**
 * Returns an API refusal in words, from its status and the body it came with.
 * @example refusalText(401, '{"error":{"code":"invalid_api_key","message":"the API key is unknown or revoked"}}') → 'The service refused: the API key is unknown or revoked (HTTP 401, invalid_api_key).'
 */
export function refusalText(status: number, bodyText: string): string {
  const error = readApiError(bodyText);
  if (error === undefined) return `The service answered HTTP ${status} without an explanation.`;
  return `The service refused: ${error.message} (HTTP ${status}, ${error.code}).`;
}

function readApiError(bodyText: string): { code: string; message: string } | undefined {
  try {
    const error = (JSON.parse(bodyText) as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    if (typeof error?.code === 'string' && typeof error.message === 'string') return { code: error.code, message: error.message };
  } catch {
    // Not JSON: a proxy's page, say; the status alone is reported.
  }
  return undefined;
}

/**
 * Returns the sentence a test event's result is announced with.
 * @example testResultText(view) → 'The receiver accepted the test event: HTTP 200.'
 */
export function testResultText(delivery: DeliveryView): string {
  const attempt = delivery.attempts.at(-1);
  if (attempt === undefined) return 'The test event was queued; no attempt is recorded yet.';
  if (attempt.accepted) return `The receiver accepted the test event: ${attempt.answer}.`;
  return `The test event was not accepted: ${attempt.answer}.`;
}
