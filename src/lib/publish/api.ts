import type { IncomingMessage, ServerResponse } from 'node:http';
import { DISK_FULL_ANSWER, isDiskFull } from '../disk-space.ts';
import {
  type ApiContext,
  type ApiOptions,
  ApiRefusal,
  jsonBodyReader,
  keyAuthenticator,
  type RouteHandler,
  sendJson,
} from './api-context.ts';
import { listDeliveries, resend, revealSecret, rotateSecret, sendTestEvent } from './api-webhooks.ts';
import { LONG_POLL_CAP_SECONDS, parseWait } from './long-poll.ts';
import { readPublishRequest } from './publish-request.ts';
import { closeLingering, DEFAULT_BODY_LIMIT_BYTES, discardRest } from './request-body.ts';
import { readGeneration, submitPublish } from './submission.ts';
import { PUBLISH_TOOL } from './tasks.ts';

export type { ApiOptions, InstanceHealth, StorageReport } from './api-context.ts';
export { TEST_EVENT, TEST_TOOL } from './api-webhooks.ts';

/** A handler for requests under `/api/`. */
export type ApiHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

const GENERATION_PATH = /^\/api\/generations\/([^/]+)$/;
const RESEND_PATH = /^\/api\/webhooks\/deliveries\/([^/]+)\/resend\/?$/;

/** `POST /api/publish`: a task for the record, answered 202 with its handle. */
const publish: RouteHandler = async ({ authenticate, readRequestBody, submission }, request, response, url) => {
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
  const { handle, statusUrl, callbackUrlWarning } = submitted;
  sendJson(response, 202, JSON.stringify({ handle, status_url: statusUrl, callback_url_warning: callbackUrlWarning }), {
    Location: submitted.statusUrl,
    ...(submitted.replayed ? { 'Idempotent-Replayed': 'true' } : {}),
  });
};

/** `GET /api/generations/<handle>[?wait=s]`: the task's projection, after a long poll when asked. */
const getGeneration: RouteHandler = async ({ authenticate, submission, longPollCapSeconds }, request, response, url, asked = '') => {
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

/** `GET /api/health`: this instance, its database, the build lease, storage, builds and files set aside. */
const health: RouteHandler = async ({ checkStorage, instanceHealth, store, publisher }, _request, response) => {
  const storage = checkStorage?.();
  const instance = await instanceHealth?.();
  // Never "ok" while requests fail: a database in trouble is reported before the store is asked anything.
  const failing = (storage?.databases.some((database) => database.state !== 'ok') ?? false) || instance?.database.answers === false;
  if (failing) {
    const storageShown = storage === undefined ? {} : { databases: storage.databases, disk: storage.disk };
    sendJson(response, 503, JSON.stringify({ status: 'failing', ...instance, ...storageShown }));
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

const ROUTES: ReadonlyArray<{ match: (pathname: string) => string[] | undefined; methods: string[]; handle: RouteHandler }> = [
  { match: exactly('/api/publish'), methods: ['POST'], handle: publish },
  { match: (pathname) => GENERATION_PATH.exec(pathname)?.slice(1), methods: ['GET'], handle: getGeneration },
  { match: exactly('/api/webhooks/deliveries'), methods: ['GET'], handle: listDeliveries },
  { match: (pathname) => RESEND_PATH.exec(pathname)?.slice(1), methods: ['POST'], handle: resend },
  { match: exactly('/api/webhooks/test'), methods: ['POST'], handle: sendTestEvent },
  { match: exactly('/api/webhooks/secret'), methods: ['GET'], handle: revealSecret },
  { match: exactly('/api/webhooks/secret/rotate'), methods: ['POST'], handle: rotateSecret },
  { match: exactly('/api/health'), methods: ['GET'], handle: health },
];

/**
 * Returns the handler of the publish API: `POST /api/publish`, `GET /api/generations/<handle>[?wait=s]`,
 * `GET /api/webhooks/deliveries`, `POST /api/webhooks/deliveries/<handle>/resend`,
 * `POST /api/webhooks/test`, `GET /api/webhooks/secret`, `POST /api/webhooks/secret/rotate`,
 * `GET /api/health`. Errors are `{ "error": { "code", "message" } }`.
 */
export function createApiHandler(options: ApiOptions): ApiHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const context: ApiContext = {
    ...options,
    callbackPolicy: options.callbackPolicy ?? {},
    maxBodyBytes,
    longPollCapSeconds: options.longPollCapSeconds ?? LONG_POLL_CAP_SECONDS,
    testEventWaitMs: options.testEventWaitMs ?? 12_000,
    authenticate: keyAuthenticator(options.store),
    readRequestBody: jsonBodyReader(maxBodyBytes),
  };
  return async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    try {
      await route(context, request, response, url);
    } catch (thrown) {
      const error = isDiskFull(thrown) ? new ApiRefusal(507, 'insufficient_storage', DISK_FULL_ANSWER) : thrown;
      if (!(error instanceof ApiRefusal)) throw error;
      await refuse(request, response, error, maxBodyBytes);
    }
  };
}

/** Runs the route the request's path and method name, or refuses with 404 or 405. */
async function route(context: ApiContext, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  for (const { match, methods, handle } of ROUTES) {
    const params = match(url.pathname);
    if (params === undefined) continue;
    if (!methods.includes(request.method ?? '')) {
      throw new ApiRefusal(405, 'method_not_allowed', `${url.pathname} accepts ${methods.join(', ')}`, { Allow: methods.join(', ') });
    }
    await handle(context, request, response, url, ...params.map(decodeSegment));
    return;
  }
  throw new ApiRefusal(404, 'not_found', `no API route ${request.method} ${url.pathname.slice(0, 200)}`);
}

/** Answers a refusal, reading what is left of the body first so the client can read the answer (or closing the connection). */
async function refuse(request: IncomingMessage, response: ServerResponse, refusal: ApiRefusal, maxBodyBytes: number): Promise<void> {
  const discarded = await bodyDiscarded(request, 2 * maxBodyBytes);
  if (!discarded) closeLingering(request);
  sendJson(
    response,
    refusal.status,
    JSON.stringify({ error: { code: refusal.code, message: refusal.message } }),
    discarded ? refusal.headers : { ...refusal.headers, Connection: 'close' },
  );
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
