import { randomUUID } from 'node:crypto';
import { request } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createSecureContext, getCACertificates, type SecureContext } from 'node:tls';
import { checkCallbackUrlForm, createGuardedLookup, CallbackUrlError } from './callback-url.ts';
import type { CallbackUrlPolicy } from './callback-url.ts';
import type { AttemptResult } from './delivery-record.ts';
import { buildEventBody } from './event-body.ts';
import type { CompletionEvent } from './event-body.ts';
import { signPayload } from './signature.ts';

/** Longest one attempt may take, from connecting to the answer (spec section 8). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** How much of a receiver's answer is kept in the attempt record. */
const RESPONSE_BODY_LIMIT_BYTES = 1024;

/** The user agent naming the delivery-format version (spec section 9). */
const USER_AGENT = 'Svc-Webhooks/1';

/** One attempt's request, built at send time so `delivered_at` and the signature are fresh. */
export interface PreparedDelivery {
  callbackUrl: string;
  /** The X-Svc-Delivery id, new for every attempt. */
  deliveryId: string;
  /** The headers sent, signature included. */
  headers: Record<string, string>;
  /** The headers with the signature's `v1` redacted, for records and logs. */
  recordedHeaders: Record<string, string>;
  body: string;
}

/** How a delivery is sent: address policy, trust and timeout. */
export interface DeliveryOptions {
  /** Which addresses may be reached; checked again at connect time. */
  policy?: CallbackUrlPolicy;
  /** A certificate authority to trust besides the default ones, for tests with a self-signed receiver. */
  trustedCa?: string | Buffer;
  /** Per-attempt limit in milliseconds; default 10 000. */
  timeoutMs?: number;
  /** Starts the attempt's timeout; returns its cancel. Default setTimeout: tests pass their own to fire it when they choose. */
  startTimer?: StartTimer;
}

/** Calls `onTimeout` after `ms` unless the returned function is called first. */
export type StartTimer = (ms: number, onTimeout: () => void) => () => void;

const startRealTimer: StartTimer = (ms, onTimeout) => {
  const timer = setTimeout(onTimeout, ms);
  return () => clearTimeout(timer);
};

/** Builds one attempt's request: spec 2.2 body with `delivered_at` = now, spec 4.3 headers, signed now. */
export function prepareDelivery(event: CompletionEvent & { callbackUrl: string }, secret: string, now: Date): PreparedDelivery {
  const body = buildEventBody(event, now);
  const deliveryId = randomUUID();
  const signature = signPayload(secret, Math.floor(now.getTime() / 1000), body);
  const common = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Svc-Event': event.event,
    'X-Svc-Delivery': deliveryId,
  };
  return {
    callbackUrl: event.callbackUrl,
    deliveryId,
    headers: { ...common, 'X-Svc-Signature': signature },
    recordedHeaders: { ...common, 'X-Svc-Signature': signature.replace(/v1=[^,]*/g, 'v1=[redacted]') },
    body,
  };
}

/** Sends one prepared attempt: one POST, no redirects followed, addresses checked at connect time. */
export async function sendDelivery(prepared: PreparedDelivery, options: DeliveryOptions = {}): Promise<AttemptResult> {
  const { policy = {}, trustedCa, timeoutMs = DELIVERY_TIMEOUT_MS, startTimer = startRealTimer } = options;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const formCheck = checkCallbackUrlForm(prepared.callbackUrl, policy);
  if (!formCheck.allowed) return failed(`refused: ${formCheck.reason}`, elapsed());

  const bodyBytes = Buffer.from(prepared.body, 'utf8');
  const req = request(formCheck.url, {
    method: 'POST',
    headers: { ...prepared.headers, 'Content-Length': String(bodyBytes.length) },
    // A fresh agent per attempt: no pooled socket outlives the connect-time address check.
    agent: false,
    lookup: createGuardedLookup(policy),
    ...(trustedCa === undefined ? {} : { secureContext: trustingContext(trustedCa) }),
  });
  return new Promise<AttemptResult>((resolve) => {
    let response: IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (error: string | null) => {
      if (settled) return;
      settled = true;
      cancelTimer();
      // The 'error' listener below stays attached, so whatever destroying emits is absorbed.
      req.destroy();
      const status = response?.statusCode ?? null;
      const retryAfter = status === 429 || status === 503 ? response?.headers['retry-after'] : undefined;
      resolve({
        retryAfter: retryAfter === undefined ? null : retryAfter.slice(0, 100),
        accepted: status !== null && status >= 200 && status < 300,
        status,
        error: error ?? describeRedirect(response),
        responseBodyStart: new TextDecoder().decode(Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT_BYTES)),
        durationMs: elapsed(),
      });
    };
    // Once the status is known, running out of time only stops reading the body.
    const cancelTimer = startTimer(timeoutMs, () => settle(response === undefined ? `timed out after ${timeoutMs} ms` : null));
    req.on('response', (res) => {
      response = res;
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        received += chunk.length;
        if (received >= RESPONSE_BODY_LIMIT_BYTES) settle(null);
      });
      res.on('end', () => settle(null));
      res.on('error', () => settle(null));
    });
    req.on('error', (error) => settle(describeError(error)));
    req.end(bodyBytes);
  });
}

/** The TLS contexts trusting an extra authority, by its text: one takes tens of milliseconds to make from every trusted certificate. */
const trustingContexts = new Map<string, SecureContext>();

/** A TLS context trusting the default authorities (and NODE_EXTRA_CA_CERTS's) and `trustedCa`, made once for each. */
function trustingContext(trustedCa: string | Buffer): SecureContext {
  const key = trustedCa.toString();
  let context = trustingContexts.get(key);
  if (context === undefined) {
    // Node's `ca` replaces the trusted authorities, so the extra one is given with them.
    context = createSecureContext({ ca: [...getCACertificates('default'), trustedCa] });
    trustingContexts.set(key, context);
  }
  return context;
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error instanceof CallbackUrlError) return `refused at connect time: ${error.reason}`;
  return error.code === undefined ? error.message : `${error.code}: ${error.message}`;
}

function describeRedirect(response: IncomingMessage | undefined): string | null {
  const status = response?.statusCode;
  if (status === undefined || status < 300 || status >= 400) return null;
  const location = response?.headers.location;
  return `redirect${location === undefined ? '' : ` to ${location.slice(0, 200)}`} not followed`;
}

function failed(error: string, durationMs: number): AttemptResult {
  return { accepted: false, status: null, error, responseBodyStart: '', durationMs, retryAfter: null };
}
