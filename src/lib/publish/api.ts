import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkCallbackUrl, deliveryToWire, stateFromWire, type CallbackUrlPolicy, type Outbox } from '../webhooks/index.ts';
import { DISK_FULL_ANSWER, type DiskReport, isDiskFull } from '../disk-space.ts';
import type { DatabaseHealth } from '../sqlite-database.ts';
import { bearerToken } from './keys.ts';
import { LONG_POLL_CAP_SECONDS, parseWait } from './long-poll.ts';
import type { Publisher } from './publisher.ts';
import { readPublishRequest } from './publish-request.ts';
import { readGeneration, submitPublish, type SubmissionContext } from './submission.ts';
import { closeLingering, DEFAULT_BODY_LIMIT_BYTES, discardRest, readBody } from './request-body.ts';
import type { PublishStore } from './store.ts';
import { projectTask, PUBLISH_TOOL } from './tasks.ts';

/** What the API answers from. */
export interface ApiOptions {
  store: PublishStore;
  /** Where publish tasks are made (shared with the MCP tools). */
  submission: SubmissionContext;
  publisher: Pick<Publisher, 'waitUntilDone' | 'buildsStarted' | 'brokenRecordFiles'>;
  outbox: Pick<Outbox, 'listDeliveries' | 'resend' | 'enqueue' | 'waitForAttempt'>;
  /** Which callback URLs are accepted; loopback only in tests. */
  callbackPolicy?: CallbackUrlPolicy;
  /** Largest request body read; default 5 MiB. */
  maxBodyBytes?: number;
  /** Longest long poll in seconds; default 50 (spec section 8). */
  longPollCapSeconds?: number;
  /** How long `POST /api/webhooks/test` waits for its attempt's answer; default 12 s (the 10 s delivery timeout and some). */
  testEventWaitMs?: number;
  /** This instance, its database and the build lease, as health reports them; default: none reported. */
  instanceHealth?: () => Promise<InstanceHealth>;
  /** The databases' state and the disks' free space, for `GET /api/health`; nothing is reported without it. */
  checkStorage?: () => StorageReport;
}

/** What health says of the instance answering, its database and the build lease. */
export interface InstanceHealth {
  instance: string;
  database: { kind: 'sqlite' | 'postgresql'; answers: boolean; error?: string };
  build_lease: { holder: string | null; held_here: boolean };
}

/** What health reports of storage: each database's state (sqlite-database.ts) and the disks' free space (disk-space.ts). */
export interface StorageReport {
  databases: DatabaseHealth[];
  disk: DiskReport;
}

/** A handler for requests under `/api/`. */
export type ApiHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** The event a test delivery carries: a category of its own, so no receiver takes it for a publish. */
export const TEST_EVENT = 'test.completed';
/** The tool a test delivery names. */
export const TEST_TOOL = 'webhooks.send_test';

const GENERATION_PATH = /^\/api\/generations\/([^/]+)$/;
const RESEND_PATH = /^\/api\/webhooks\/deliveries\/([^/]+)\/resend\/?$/;
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
 * Returns the handler of the publish API: `POST /api/publish`, `GET /api/generations/<handle>[?wait=s]`,
 * `GET /api/webhooks/deliveries`, `POST /api/webhooks/deliveries/<handle>/resend`,
 * `POST /api/webhooks/test`, `GET /api/webhooks/secret`, `POST /api/webhooks/secret/rotate`,
 * `GET /api/health`. Errors are `{ "error": { "code", "message" } }`.
 */
export function createApiHandler(options: ApiOptions): ApiHandler {
  const {
    store,
    submission,
    publisher,
    outbox,
    callbackPolicy = {},
    maxBodyBytes = DEFAULT_BODY_LIMIT_BYTES,
    longPollCapSeconds = LONG_POLL_CAP_SECONDS,
    testEventWaitMs = 12_000,
    instanceHealth,
  } = options;

  const authenticate = async (request: IncomingMessage): Promise<string> => {
    const key = bearerToken(request.headers.authorization);
    if (key === undefined) {
      throw new ApiRefusal(401, 'unauthorized', 'send the API key as "Authorization: Bearer <key>"', {
        'WWW-Authenticate': 'Bearer realm="garment-press"',
      });
    }
    const organizationId = await store.organizationForKey(key);
    if (organizationId === undefined) {
      throw new ApiRefusal(401, 'invalid_api_key', 'the API key is unknown or revoked', {
        'WWW-Authenticate': 'Bearer realm="garment-press", error="invalid_token"',
      });
    }
    return organizationId;
  };

  /** Reads a JSON request body whole, refusing one over the limit. */
  const readRequestBody = async (request: IncomingMessage): Promise<Buffer | undefined> => {
    // Any other type is read as JSON anyway: `curl -d` labels JSON as a form.
    const contentType = request.headers['content-type'];
    if (contentType !== undefined && /^multipart\//i.test(contentType)) {
      throw new ApiRefusal(415, 'unsupported_media_type', `send the body as application/json, got ${contentType.slice(0, 80)}`);
    }
    const body = await readBody(request, maxBodyBytes, request.headers['content-length']);
    if (!body.ok && body.reason === 'too_large') {
      throw new ApiRefusal(413, 'payload_too_large', `the request body is larger than the limit of ${maxBodyBytes} bytes`);
    }
    return body.ok ? body.bytes : undefined;
  };

  const publish = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const organizationId = await authenticate(request);
    const bytes = await readRequestBody(request);
    if (bytes === undefined) return;
    const read = readPublishRequest(bytes, url.searchParams.get('callback_url'));
    if (!read.ok) throw new ApiRefusal(400, read.code, read.message);
    const idempotencyKey = request.headers['idempotency-key'];
    const submitted = await submitPublish(submission, {
      organizationId,
      record: read.recordText,
      callbackUrl: read.callbackUrl,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : null,
      tool: PUBLISH_TOOL,
    });
    if (!submitted.ok) throw new ApiRefusal(submitted.refusal.status, submitted.refusal.code, submitted.refusal.message);
    sendJson(response, 202, JSON.stringify({ handle: submitted.handle, status_url: submitted.statusUrl }), {
      Location: submitted.statusUrl,
      ...(submitted.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
    });
  };

  const getGeneration = async (request: IncomingMessage, response: ServerResponse, url: URL, asked: string) => {
    const organizationId = await authenticate(request);
    const wait = parseWait(url.searchParams.get('wait'), longPollCapSeconds);
    if (!wait.ok) throw new ApiRefusal(400, 'invalid_wait', wait.message);
    const gone = new AbortController();
    const onClose = () => gone.abort();
    response.once('close', onClose);
    const outcome = await readGeneration(submission, { organizationId, handle: asked, waitMs: wait.waitMs, signal: gone.signal });
    response.off('close', onClose);
    if (gone.signal.aborted) return;
    if (!outcome.ok) throw new ApiRefusal(outcome.refusal.status, outcome.refusal.code, outcome.refusal.message);
    sendJson(response, 200, outcome.text);
  };

  const listDeliveries = async (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const organizationId = await authenticate(request);
    const query = url.searchParams;
    const unknown = [...new Set(query.keys())].filter((name) => !['handle', 'event', 'outcome', 'limit', 'before'].includes(name));
    if (unknown.length > 0)
      throw new ApiRefusal(
        400,
        'invalid_query',
        `unknown query parameter ${JSON.stringify(unknown[0]!.slice(0, 40))}; expected handle, event, outcome, limit or before`,
      );
    const limit = readWholeNumber(query.get('limit'), 'limit', 1, DELIVERIES_PAGE_MAX) ?? 50;
    const before = readWholeNumber(query.get('before'), 'before', 1, Number.MAX_SAFE_INTEGER);
    const outcome = query.get('outcome');
    const state = outcome === null ? undefined : stateFromWire(outcome);
    if (outcome !== null && state === undefined) {
      throw new ApiRefusal(
        400,
        'invalid_query',
        `outcome: expected pending, delivered or given_up, got ${JSON.stringify(outcome.slice(0, 40))}`,
      );
    }
    const handle = query.get('handle');
    const event = query.get('event');
    const deliveries = await outbox.listDeliveries(
      organizationId,
      {
        ...(handle === null ? {} : { handle: handle.toLowerCase() }),
        ...(event === null ? {} : { event }),
        ...(state === undefined ? {} : { state }),
      },
      { limit, ...(before === undefined ? {} : { beforeId: before }) },
    );
    const last = deliveries.at(-1);
    const page = {
      deliveries: deliveries.map(deliveryToWire),
      next_before: deliveries.length === limit && last !== undefined ? last.id : null,
    };
    sendJson(response, 200, JSON.stringify(page));
  };

  const resend = async (request: IncomingMessage, response: ServerResponse, _url: URL, asked: string) => {
    const organizationId = await authenticate(request);
    const resent = await outbox.resend(organizationId, asked.toLowerCase());
    if (!resent.ok && resent.reason === 'not_found')
      throw new ApiRefusal(404, 'not_found', `no delivery for handle ${JSON.stringify(asked.slice(0, 64))} for this organization`);
    if (!resent.ok)
      throw new ApiRefusal(409, 'attempt_in_flight', 'an attempt at this event is being made now; resend once it is recorded', {
        'Retry-After': '10',
      });
    const [delivery] = await outbox.listDeliveries(organizationId, { handle: resent.entry.handle }, { limit: 1 });
    sendJson(response, 202, JSON.stringify({ delivery: deliveryToWire(delivery!) }));
  };

  const sendTestEvent = async (request: IncomingMessage, response: ServerResponse) => {
    const organizationId = await authenticate(request);
    const bytes = await readRequestBody(request);
    if (bytes === undefined) return;
    let body: unknown;
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw new ApiRefusal(400, 'invalid_json', 'expected { "callback_url": "https://..." }');
    }
    const callbackUrl = (body as { callback_url?: unknown } | null)?.callback_url;
    if (typeof callbackUrl !== 'string') throw new ApiRefusal(400, 'invalid_request', 'expected { "callback_url": "https://..." }');
    const check = await checkCallbackUrl(callbackUrl, callbackPolicy);
    if (!check.allowed) throw new ApiRefusal(422, 'callback_url_refused', `callback_url refused: ${check.reason}`);
    const handle = randomUUID();
    const data = projectTask({
      handle,
      resourceId: '',
      status: 'complete',
      progress: 1,
      stage: 'test event: nothing was published',
      pageUrl: '',
      error: '',
      supersededBy: null,
    });
    await outbox.enqueue(
      { event: TEST_EVENT, handle, tool: TEST_TOOL, organizationId, dataJson: JSON.stringify(data), callbackUrl },
      { attemptLimit: 1 },
    );
    await outbox.waitForAttempt(handle, 0, testEventWaitMs);
    const [delivery] = await outbox.listDeliveries(organizationId, { handle }, { limit: 1 });
    sendJson(response, 200, JSON.stringify({ delivery: deliveryToWire(delivery!) }));
  };

  const revealSecret = async (request: IncomingMessage, response: ServerResponse) => {
    const organizationId = await authenticate(request);
    sendJson(response, 200, JSON.stringify({ organization_id: organizationId, signing_secret: await store.signingSecret(organizationId) }));
  };

  const rotateSecret = async (request: IncomingMessage, response: ServerResponse) => {
    const organizationId = await authenticate(request);
    sendJson(
      response,
      200,
      JSON.stringify({ organization_id: organizationId, signing_secret: await store.rotateSigningSecret(organizationId) }),
    );
  };

  const health = async (_request: IncomingMessage, response: ServerResponse) => {
    const storage = options.checkStorage?.();
    const instance = await instanceHealth?.();
    // Never "ok" while requests fail: a database in trouble is reported before the store is asked anything.
    const failing = (storage?.databases.some((database) => database.state !== 'ok') ?? false) || instance?.database.answers === false;
    if (failing) {
      sendJson(
        response,
        503,
        JSON.stringify({
          status: 'failing',
          ...instance,
          ...(storage === undefined ? {} : { databases: storage.databases, disk: storage.disk }),
        }),
      );
      return;
    }
    const builds = await store.buildCounts();
    const broken = publisher.brokenRecordFiles;
    sendJson(
      response,
      200,
      JSON.stringify({
        status: broken.length === 0 && storage?.disk.state !== 'full' ? 'ok' : 'attention',
        ...instance,
        ...storage,
        builds: { ...builds, this_run: publisher.buildsStarted },
        records_folder: {
          set_aside: broken.map((file) => ({ file: file.file, set_aside_as: file.setAsideAs, problems: file.problems, at: file.at })),
        },
      }),
    );
  };

  const routes: Array<{
    match: (pathname: string) => string[] | undefined;
    methods: string[];
    handle: (request: IncomingMessage, response: ServerResponse, url: URL, ...params: string[]) => Promise<void> | void;
  }> = [
    { match: exactly('/api/publish'), methods: ['POST'], handle: publish },
    { match: (pathname) => GENERATION_PATH.exec(pathname)?.slice(1), methods: ['GET'], handle: getGeneration },
    { match: exactly('/api/webhooks/deliveries'), methods: ['GET'], handle: listDeliveries },
    { match: (pathname) => RESEND_PATH.exec(pathname)?.slice(1), methods: ['POST'], handle: resend },
    { match: exactly('/api/webhooks/test'), methods: ['POST'], handle: sendTestEvent },
    { match: exactly('/api/webhooks/secret'), methods: ['GET'], handle: revealSecret },
    { match: exactly('/api/webhooks/secret/rotate'), methods: ['POST'], handle: rotateSecret },
    { match: exactly('/api/health'), methods: ['GET'], handle: health },
  ];

  return async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    try {
      for (const route of routes) {
        const params = route.match(url.pathname);
        if (params === undefined) continue;
        if (!route.methods.includes(request.method ?? '')) {
          throw new ApiRefusal(405, 'method_not_allowed', `${url.pathname} accepts ${route.methods.join(', ')}`, {
            Allow: route.methods.join(', '),
          });
        }
        await route.handle(request, response, url, ...params.map(decodeSegment));
        return;
      }
      throw new ApiRefusal(404, 'not_found', `no API route ${request.method} ${url.pathname.slice(0, 200)}`);
    } catch (thrown) {
      const error = isDiskFull(thrown) ? new ApiRefusal(507, 'insufficient_storage', DISK_FULL_ANSWER) : thrown;
      if (!(error instanceof ApiRefusal)) throw error;
      const discarded = await bodyDiscarded(request, 2 * maxBodyBytes);
      if (!discarded) closeLingering(request);
      sendJson(
        response,
        error.status,
        JSON.stringify({ error: { code: error.code, message: error.message } }),
        discarded ? error.headers : { ...error.headers, Connection: 'close' },
      );
    }
  };
}

/**
 * Reads and discards what is left of a refused request's body, unless it is declared larger than
 * `limitBytes`, so the client can read the answer. False means the connection should be closed.
 */
async function bodyDiscarded(request: IncomingMessage, limitBytes: number): Promise<boolean> {
  const unreadBody =
    !request.readableEnded && (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined);
  if (!unreadBody) return true;
  if (Number(request.headers['content-length'] ?? 0) > limitBytes) return false;
  return discardRest(request, limitBytes);
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
    throw new ApiRefusal(
      400,
      'invalid_query',
      `${name}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(raw.slice(0, 40))}`,
    );
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
