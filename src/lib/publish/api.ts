import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeJsonBytes, parseJson } from '../record/parse.ts';
import type { AttemptRecord, CallbackUrlPolicy, Outbox } from '../webhooks/index.ts';
import { bearerToken } from './keys.ts';
import { LONG_POLL_CAP_SECONDS, parseWait } from './long-poll.ts';
import type { Publisher } from './publisher.ts';
import { DEFAULT_BODY_LIMIT_BYTES, discardRest, readBody } from './request-body.ts';
import type { PublishStore } from './store.ts';
import { readGeneration, recordFileText, submitPublish, type Refusal } from './submission.ts';

/** What the API answers from. */
export interface ApiOptions {
  store: PublishStore;
  publisher: Publisher;
  outbox: Pick<Outbox, 'listAttempts'>;
  /** Which callback URLs are accepted; loopback only in tests. */
  callbackPolicy?: CallbackUrlPolicy;
  /** Largest request body read; default 5 MiB. */
  maxBodyBytes?: number;
  /** Longest long poll in seconds; default 50 (spec section 8). */
  longPollCapSeconds?: number;
}

/** A handler for requests under `/api/`. */
export type ApiHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

const GENERATION_PATH = /^\/api\/generations\/([^/]+)$/;
const ENVELOPE_FIELDS = ['record', 'callback_url'];
const DELIVERIES_PAGE_MAX = 100;

/** An answer refused with a status, an error code and a message for people. */
class ApiRefusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    this.status = status;
    this.code = code;
    this.message = message;
    this.headers = headers;
  }
}

/**
 * Returns the handler of the publish API:
 * `POST /api/publish`, `GET /api/generations/<handle>[?wait=s]`, `GET /api/webhooks/deliveries`,
 * `GET /api/health`. Errors are `{ "error": { "code", "message" } }`.
 */
export function createApiHandler(options: ApiOptions): ApiHandler {
  const { store, publisher, outbox, callbackPolicy = {}, maxBodyBytes = DEFAULT_BODY_LIMIT_BYTES, longPollCapSeconds = LONG_POLL_CAP_SECONDS } = options;
  const submission = { store, publisher, callbackPolicy };

  const authenticate = (request: IncomingMessage): string => {
    const key = bearerToken(request.headers.authorization);
    if (key === undefined) {
      throw new ApiRefusal(401, 'unauthorized', 'send the API key as "Authorization: Bearer <key>"', { 'WWW-Authenticate': 'Bearer realm="garment-press"' });
    }
    const organizationId = store.organizationForKey(key);
    if (organizationId === undefined) {
      throw new ApiRefusal(401, 'invalid_api_key', 'the API key is unknown or revoked', { 'WWW-Authenticate': 'Bearer realm="garment-press", error="invalid_token"' });
    }
    return organizationId;
  };

  const publish = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const organizationId = authenticate(request);
    // Any other type is read as JSON anyway: `curl -d` labels JSON as a form.
    const contentType = request.headers['content-type'];
    if (contentType !== undefined && /^multipart\//i.test(contentType)) {
      throw new ApiRefusal(415, 'unsupported_media_type', `send the body as application/json, got ${contentType.slice(0, 80)}`);
    }
    const body = await readBody(request, maxBodyBytes, request.headers['content-length']);
    if (!body.ok && body.reason === 'too_large') {
      throw new ApiRefusal(413, 'payload_too_large', `the request body is larger than the limit of ${maxBodyBytes} bytes`);
    }
    if (!body.ok) return;
    const { recordText, callbackUrl } = readPublishRequest(body.bytes, url.searchParams.get('callback_url'));
    const outcome = await submitPublish(submission, { organizationId, recordText, callbackUrl });
    if (!outcome.ok) throw refusal(outcome.refusal);
    sendJson(response, 202, JSON.stringify({ handle: outcome.handle, status_url: outcome.statusUrl }), { Location: outcome.statusUrl });
  };

  const getGeneration = async (request: IncomingMessage, response: ServerResponse, url: URL, asked: string) => {
    const organizationId = authenticate(request);
    const wait = parseWait(url.searchParams.get('wait'), longPollCapSeconds);
    const gone = new AbortController();
    const onClose = () => gone.abort();
    response.once('close', onClose);
    const outcome = await readGeneration(submission, { organizationId, handle: asked, waitMs: wait.ok ? wait.waitMs : 0, signal: gone.signal });
    response.off('close', onClose);
    if (!outcome.ok) throw refusal(outcome.refusal);
    if (!wait.ok) throw new ApiRefusal(400, 'invalid_wait', wait.message);
    if (gone.signal.aborted) return;
    sendJson(response, 200, outcome.text);
  };

  const listDeliveries = (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const organizationId = authenticate(request);
    const limit = readWholeNumber(url.searchParams.get('limit'), 'limit', 1, DELIVERIES_PAGE_MAX) ?? 50;
    const before = readWholeNumber(url.searchParams.get('before'), 'before', 1, Number.MAX_SAFE_INTEGER);
    const attempts = outbox.listAttempts(organizationId, { limit, ...(before === undefined ? {} : { beforeId: before }) });
    const last = attempts.at(-1);
    const page = { deliveries: attempts.map(describeAttempt), next_before: attempts.length === limit && last !== undefined ? last.id : null };
    sendJson(response, 200, JSON.stringify(page));
  };

  const health = (request: IncomingMessage, response: ServerResponse) => {
    const builds = store.buildCounts();
    sendJson(response, 200, JSON.stringify({ status: 'ok', builds: { ...builds, this_run: publisher.buildsStarted } }));
  };

  const routes: Array<{ match: (pathname: string) => string[] | undefined; methods: string[]; handle: (request: IncomingMessage, response: ServerResponse, url: URL, ...params: string[]) => Promise<void> | void }> = [
    { match: exactly('/api/publish'), methods: ['POST'], handle: publish },
    { match: (pathname) => GENERATION_PATH.exec(pathname)?.slice(1), methods: ['GET'], handle: getGeneration },
    { match: exactly('/api/webhooks/deliveries'), methods: ['GET'], handle: listDeliveries },
    { match: exactly('/api/health'), methods: ['GET'], handle: health },
  ];

  return async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    try {
      for (const route of routes) {
        const params = route.match(url.pathname);
        if (params === undefined) continue;
        if (!route.methods.includes(request.method ?? '')) {
          throw new ApiRefusal(405, 'method_not_allowed', `${url.pathname} accepts ${route.methods.join(', ')}`, { Allow: route.methods.join(', ') });
        }
        await route.handle(request, response, url, ...params.map(decodeSegment));
        return;
      }
      throw new ApiRefusal(404, 'not_found', `no API route ${request.method} ${url.pathname.slice(0, 200)}`);
    } catch (error) {
      if (!(error instanceof ApiRefusal)) throw error;
      const discarded = await bodyDiscarded(request, 2 * maxBodyBytes);
      if (!discarded) closeLingering(request);
      sendJson(response, error.status, JSON.stringify({ error: { code: error.code, message: error.message } }), discarded ? error.headers : { ...error.headers, Connection: 'close' });
    }
  };
}

/**
 * Reads a publish request: `{ "record": {...}, "callback_url": "https://..." }`, or a bare record
 * (it has `schema_version`) with callback_url in the query string.
 */
function readPublishRequest(bytes: Buffer, queryCallbackUrl: string | null): { recordText: string; callbackUrl: string | null } {
  const decoded = decodeJsonBytes(bytes);
  if (!decoded.ok) {
    const { line, column, message } = decoded.error;
    throw new ApiRefusal(400, 'invalid_body', `the request body is not UTF-8 text: line ${line}, column ${column}: ${message}`);
  }
  const parsed = parseJson(decoded.text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.error;
    throw new ApiRefusal(400, 'invalid_json', `the request body is not JSON: line ${line}, column ${column}: ${message}`);
  }
  const body = parsed.value;
  const shape = 'expected { "record": {...}, "callback_url": "https://..." } or a bare record with schema_version';
  if (!isObject(body)) throw new ApiRefusal(400, 'invalid_request', `${shape}, got ${kindOf(body)}`);

  let record: unknown;
  let bodyCallbackUrl: unknown;
  if ('schema_version' in body) {
    record = body;
  } else {
    const unknown = Object.keys(body).filter((key) => !ENVELOPE_FIELDS.includes(key));
    if (unknown.length > 0) {
      throw new ApiRefusal(400, 'invalid_request', `unknown field${unknown.length === 1 ? '' : 's'} ${unknown.map((key) => JSON.stringify(key.slice(0, 40))).join(', ')}; ${shape}`);
    }
    if (!('record' in body)) throw new ApiRefusal(400, 'invalid_request', `missing "record"; ${shape}`);
    record = body.record;
    bodyCallbackUrl = body.callback_url;
  }
  if (!isObject(record)) throw new ApiRefusal(400, 'invalid_request', `"record" must be a JSON object, got ${kindOf(record)}`);
  if (bodyCallbackUrl !== undefined && bodyCallbackUrl !== null && typeof bodyCallbackUrl !== 'string') {
    throw new ApiRefusal(400, 'invalid_request', `"callback_url" must be a string, got ${kindOf(bodyCallbackUrl)}`);
  }
  if (typeof bodyCallbackUrl === 'string' && queryCallbackUrl !== null) {
    throw new ApiRefusal(400, 'invalid_request', 'callback_url is given both in the body and in the query string; give it once');
  }
  const recordText = recordFileText(record);
  if (recordText === null) throw new ApiRefusal(400, 'invalid_request', '"record" is nested too deeply to be a record');
  return { recordText, callbackUrl: typeof bodyCallbackUrl === 'string' ? bodyCallbackUrl : queryCallbackUrl };
}

function refusal({ status, code, message }: Refusal): ApiRefusal {
  return new ApiRefusal(status, code, message);
}

/** An attempt as the deliveries list shows it, in wire naming; the signature's v1 is already redacted. */
function describeAttempt(attempt: AttemptRecord) {
  return {
    id: attempt.id,
    delivery_id: attempt.deliveryId,
    handle: attempt.handle,
    event: attempt.event,
    callback_url: attempt.callbackUrl,
    attempt_number: attempt.attemptNumber,
    outcome: attempt.outcome,
    status: attempt.status,
    error: attempt.error,
    request: { headers: attempt.requestHeaders, body: attempt.requestBody },
    response_body_start: attempt.responseBodyStart,
    duration_ms: attempt.durationMs,
    started_at: attempt.startedAt,
    finished_at: attempt.finishedAt,
  };
}

/**
 * Reads and discards what is left of a refused request's body, unless it is declared larger than
 * `limitBytes`, so the client can read the answer. False means the connection should be closed.
 */
async function bodyDiscarded(request: IncomingMessage, limitBytes: number): Promise<boolean> {
  const unreadBody = !request.readableEnded && (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined);
  if (!unreadBody) return true;
  if (Number(request.headers['content-length'] ?? 0) > limitBytes) return false;
  return discardRest(request, limitBytes);
}

/** How long a connection refused mid-body still reads, and drops, what its client sends after the answer. */
const LINGER_MS = 2000;

/**
 * Has the connection of a request whose body is still coming close gently after the answer. Node
 * would close the socket at once, and closing with input unread sends a reset, which can destroy
 * the answer before the client has read it. So the write side closes first, what still comes is
 * read and dropped, and the socket closes when the client stops or after LINGER_MS.
 */
function closeLingering(request: IncomingMessage): void {
  const { socket } = request;
  socket.destroySoon = () => {
    socket.end();
    request.resume();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once('close', () => clearTimeout(timer));
  };
}

function sendJson(response: ServerResponse, status: number, json: string, headers: Record<string, string> = {}) {
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  response.end(json);
}

function readWholeNumber(raw: string | null, name: string, min: number, max: number): number | undefined {
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ApiRefusal(400, 'invalid_query', `${name}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(raw.slice(0, 40))}`);
  }
  return Number(raw);
}

function exactly(path: string): (pathname: string) => string[] | undefined {
  return (pathname) => (pathname === path || pathname === `${path}/` ? [] : undefined);
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
