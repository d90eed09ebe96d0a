import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DiskReport } from '../disk-space.ts';
import type { DatabaseHealth } from '../sqlite-database.ts';
import type { CallbackUrlPolicy, Outbox } from '../webhooks/index.ts';
import { bearerToken } from './keys.ts';
import type { Publisher } from './publisher.ts';
import { readBody } from './request-body.ts';
import type { PublishStore } from './store.ts';
import type { SubmissionContext } from './submission.ts';

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

/** The options with their defaults, and the reading of a request every route shares. */
export interface ApiContext extends Required<Omit<ApiOptions, 'instanceHealth' | 'checkStorage'>> {
  instanceHealth?: () => Promise<InstanceHealth>;
  checkStorage?: () => StorageReport;
  /** The organization of the request's API key; refuses a missing, unknown or revoked key. */
  authenticate(request: IncomingMessage): Promise<string>;
  /** The request's JSON body, whole; refuses one over the limit; undefined if the client went away. */
  readRequestBody(request: IncomingMessage): Promise<Buffer | undefined>;
}

/** An API route's work: answers, or throws an ApiRefusal. */
export type RouteHandler = (
  context: ApiContext,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  ...params: string[]
) => Promise<void>;

/** An answer refused with a status, an error code and a message for people. */
export class ApiRefusal {
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

/** Returns the API key check of the store's organizations. */
export function keyAuthenticator(store: PublishStore): (request: IncomingMessage) => Promise<string> {
  return async (request) => {
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
}

/** Returns the reader of a JSON request body up to `maxBodyBytes`. */
export function jsonBodyReader(maxBodyBytes: number): (request: IncomingMessage) => Promise<Buffer | undefined> {
  return async (request) => {
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
}

export function sendJson(response: ServerResponse, status: number, json: string, headers: Record<string, string> = {}) {
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  response.end(json);
}

export function readWholeNumber(raw: string | null, name: string, min: number, max: number): number | undefined {
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
