// What the dashboard shows of the publish API's answers: deliveries as rows of words, refusals as
// sentences, in the words the page passes its script (DashboardMessages, from strings.ts). Pure and
// free of Node and the DOM, so the page's script and the unit tests share it.
// Only types come from the service's modules: `import type` is erased, so the browser loads none of them.
import type { WireAttempt, WireDelivery } from '../../webhooks/delivery-record.ts';

/** A counted phrase's two forms, each with `{count}`: `one` for a count of 1, `many` for any other. */
export interface Counted {
  one: string;
  many: string;
}

/**
 * The words the dashboard's script shows, from strings.ts (`dashboard.*`, built by
 * ../dashboard-messages.ts), passed as the page's data-messages. `{name}` is a placeholder fillMessage fills.
 */
export interface DashboardMessages {
  // Signing in and out, and calling the API.
  signInFirst: string;
  checking: string;
  signedIn: string;
  noStorage: string;
  signedOut: string;
  /** `{refusal}`: the refusal that signed the tab out. */
  signedOutRefused: string;
  /** `{reason}`: the browser's own. */
  unreachable: string;
  /** `{status}`. */
  notJson: string;
  /** `{status}`. */
  unexplained: string;
  /** `{message}`, `{status}`, `{code}`: the API error's. */
  refused: string;
  // The signing secret.
  secretShown: string;
  copied: string;
  copyRefused: string;
  secretHidden: string;
  rotated: string;
  // Test events.
  sending: string;
  testQueued: string;
  /** `{answer}`: answerText's. */
  testAccepted: string;
  /** `{answer}`. */
  testNotAccepted: string;
  // The attempt log.
  upToDate: string;
  logNone: string;
  /** `{handle}`. */
  logNoneForHandle: string;
  logCount: Counted;
  /** `{handle}` besides `{count}`. */
  logCountForHandle: Counted;
  tool: string;
  callbackUrl: string;
  recorded: string;
  resend: string;
  /** `{event}`, `{handle}`. */
  resent: string;
  attempts: Counted;
  // A delivery's state.
  delivered: string;
  givenUp: Counted;
  awaiting: string;
  /** `{time}`. */
  awaitingUntil: string;
  /** `{date}`, `{time}`: UTC. */
  time: string;
  // An attempt.
  /** `{number}`. */
  attemptTitle: string;
  /** `{answer}`, `{duration}`, `{when}`. */
  attemptSummary: string;
  /** `{ms}`. */
  duration: string;
  unfinished: string;
  when: string;
  deliveryId: string;
  answered: string;
  durationLabel: string;
  retryAfter: string;
  excerpt: string;
  nothingBack: string;
  sent: string;
  /** `{number}`: the attempt's. */
  headersOf: string;
  header: string;
  value: string;
  body: string;
  // How the receiver answered.
  /** `{status}`. */
  answerStatus: string;
  /** `{status}`, `{error}`. */
  answerStatusWithError: string;
  inFlight: string;
  interrupted: string;
  /** `{error}`. */
  interruptedWithError: string;
  /** `{error}`. */
  noAnswer: string;
  unknownFailure: string;
}

/**
 * Returns a message with its named placeholders filled, in one pass (a value holding `{name}` is
 * never expanded again); a placeholder without a value stays as it is. As the search box's
 * `fillMessage` (search/query/search-messages.ts), which the dashboard cannot load: only this folder is served.
 * @example fillMessage('HTTP {status} ({error})', { status: 302, error: 'redirects are not followed' }) → 'HTTP 302 (redirects are not followed)'
 */
export function fillMessage(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (placeholder, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : placeholder));
}

/**
 * Returns the counted phrase for `count`: the one or many form, `{count}` written as the site writes
 * counts and any other values filled.
 * @example countMessage({ one: '{count} attempt', many: '{count} attempts' }, 1200) → '1,200 attempts'
 */
export function countMessage(forms: Counted, count: number, values: Record<string, string | number> = {}): string {
  return fillMessage(count === 1 ? forms.one : forms.many, { ...values, count: count.toLocaleString('en') });
}

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
  /** Its number, 1 for the first. */
  number: number;
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
 * @example timeView('2026-11-29T20:10:03.412Z', messages) → { text: '2026-11-29 20:10:03 UTC', iso: '2026-11-29T20:10:03.412Z' }
 */
export function timeView(iso: string, messages: DashboardMessages): TimeView {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(iso);
  return { text: match === null ? iso : fillMessage(messages.time, { date: match[1]!, time: match[2]! }), iso };
}

/** Returns what the page shows of one delivery and its attempts. */
export function deliveryView(delivery: WireDelivery, messages: DashboardMessages): DeliveryView {
  return {
    id: delivery.id,
    event: delivery.event,
    handle: delivery.handle,
    tool: delivery.tool,
    callbackUrl: delivery.callback_url,
    state: stateText(delivery, messages),
    stateKind: delivery.outcome,
    created: timeView(delivery.created_at, messages),
    canResend: !delivery.attempts.some((attempt) => attempt.outcome === 'in_flight'),
    attempts: delivery.attempts.map((attempt) => attemptView(attempt, messages)),
  };
}

/**
 * Returns the delivery's state in words.
 * @example stateText({ outcome: 'pending', next_attempt_at: '2026-11-29T20:15:00.000Z', … }, messages) → 'Awaiting retry: next attempt at 2026-11-29 20:15:00 UTC'
 */
export function stateText(
  delivery: Pick<WireDelivery, 'outcome' | 'next_attempt_at' | 'attempts_made'>,
  messages: DashboardMessages,
): string {
  if (delivery.outcome === 'delivered') return messages.delivered;
  if (delivery.outcome === 'given_up') return countMessage(messages.givenUp, delivery.attempts_made);
  if (delivery.next_attempt_at === null) return messages.awaiting;
  return fillMessage(messages.awaitingUntil, { time: timeView(delivery.next_attempt_at, messages).text });
}

/** Returns what the page shows of one attempt. */
export function attemptView(attempt: WireAttempt, messages: DashboardMessages): AttemptView {
  const when = timeView(attempt.started_at, messages);
  const answer = answerText(attempt, messages);
  const duration = attempt.duration_ms === null ? messages.unfinished : fillMessage(messages.duration, { ms: attempt.duration_ms });
  return {
    number: attempt.attempt_number,
    title: fillMessage(messages.attemptTitle, { number: attempt.attempt_number }),
    summary: fillMessage(messages.attemptSummary, { answer, duration, when: when.text }),
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
 * @example answerText({ status: 503, error: null, outcome: 'failed', … }, messages) → 'HTTP 503'
 * @example answerText({ status: null, error: 'timed out after 10000 ms', outcome: 'failed', … }, messages) → 'No answer: timed out after 10000 ms'
 */
export function answerText(attempt: Pick<WireAttempt, 'status' | 'error' | 'outcome'>, messages: DashboardMessages): string {
  const { status, error } = attempt;
  if (status !== null)
    return error === null ? fillMessage(messages.answerStatus, { status }) : fillMessage(messages.answerStatusWithError, { status, error });
  if (attempt.outcome === 'in_flight') return messages.inFlight;
  if (attempt.outcome === 'interrupted')
    return error === null ? messages.interrupted : fillMessage(messages.interruptedWithError, { error });
  return fillMessage(messages.noAnswer, { error: error ?? messages.unknownFailure });
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
 * @example refusalText(401, '{"error":{"code":"invalid_api_key","message":"the API key is unknown or revoked"}}', messages) → 'The service refused: the API key is unknown or revoked (HTTP 401, invalid_api_key).'
 */
export function refusalText(status: number, bodyText: string, messages: DashboardMessages): string {
  const error = readApiError(bodyText);
  if (error === undefined) return fillMessage(messages.unexplained, { status });
  return fillMessage(messages.refused, { message: error.message, status, code: error.code });
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
 * @example testResultText(view, messages) → 'The receiver accepted the test event: HTTP 200.'
 */
export function testResultText(delivery: DeliveryView, messages: DashboardMessages): string {
  const attempt = delivery.attempts.at(-1);
  if (attempt === undefined) return messages.testQueued;
  return fillMessage(attempt.accepted ? messages.testAccepted : messages.testNotAccepted, { answer: attempt.answer });
}
