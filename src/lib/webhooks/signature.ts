import { createHmac, timingSafeEqual } from 'node:crypto';
import { GarmentPressError } from '../errors.ts';

/** Receivers' recommended window, in seconds, between signing time and now (spec section 8). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** What a receiver verifies with: raw body bytes, the header and the secrets it holds. */
export interface VerifySignatureInput {
  /** The X-Svc-Signature header value exactly as received. */
  header: string;
  /** The request body bytes exactly as received; a string is taken as its UTF-8 bytes. */
  body: Uint8Array | string;
  /** Every secret currently accepted; a receiver mid-rotation holds two. */
  secrets: readonly string[];
  /** Current time in epoch milliseconds; defaults to `Date.now`. */
  now?: () => number;
  /** Largest accepted |now - t| in seconds, in either direction; defaults to 300. */
  toleranceSeconds?: number;
}

/** Outcome of a verification: accepted with the signing time, or rejected with a reason. */
export type SignatureCheck = { accepted: true; timestamp: number } | { accepted: false; reason: string };

/** The parts of an X-Svc-Signature header that verification reads. */
export interface ParsedSignatureHeader {
  /** Signing time in Unix seconds. */
  timestamp: number;
  /** Every `v1` value in header order, unchecked. */
  signatures: string[];
}

const SECONDS_PATTERN = /^(0|[1-9][0-9]*)$/;
const V1_PATTERN = /^[0-9a-f]{64}$/;

/**
 * Returns the bytes that get signed: `<t>.<raw body>`; both signing and verification use it.
 * @example buildSignedPayload(1700000000, '{"a":1}') → bytes of '1700000000.{"a":1}'
 */
export function buildSignedPayload(timestamp: number, body: Uint8Array | string): Buffer {
  assertTimestamp(timestamp);
  return Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), toBytes(body)]);
}

/**
 * Returns the X-Svc-Signature value for a body signed at `timestamp` with the whole secret string.
 * @example signPayload('whsec_x', 1700000000, body) → 't=1700000000,v1=<64 lowercase hex>'
 */
export function signPayload(secret: string, timestamp: number, body: Uint8Array | string): string {
  return `t=${timestamp},v1=${computeV1(secret, timestamp, body)}`;
}

/** Parses an X-Svc-Signature header into its timestamp and `v1` values, or a rejection reason. */
export function parseSignatureHeader(header: string): ParsedSignatureHeader | { reason: string } {
  if (header === '') return { reason: 'signature header is empty' };
  const timestamps: string[] = [];
  const signatures: string[] = [];
  const keys: string[] = [];
  for (const [index, part] of header.split(',').entries()) {
    const eq = part.indexOf('=');
    // The part's text is left out: it may be a signature, and reasons end up in logs.
    if (eq === -1) return { reason: `malformed signature header: part ${index + 1} has no "="` };
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    keys.push(key);
    if (key === 't') timestamps.push(value);
    else if (key === 'v1') signatures.push(value);
    // Other schemes (a future v2) are ignored so receivers keep working through an upgrade.
  }
  const spacingHint = keys.some((key) => key !== key.trim()) ? ' (remove the spaces around the commas)' : '';
  const [t] = timestamps;
  if (t === undefined) return { reason: `signature header has no t${spacingHint}` };
  if (timestamps.length > 1) return { reason: 'signature header has more than one t' };
  if (signatures.length === 0) return { reason: `signature header has no v1${spacingHint}` };
  if (!SECONDS_PATTERN.test(t) || !Number.isSafeInteger(Number(t))) {
    return { reason: `t is not a whole number of Unix seconds: "${truncate(t)}"` };
  }
  return { timestamp: Number(t), signatures };
}

/** Verifies a delivery following spec section 5: parse, tolerance, HMAC over raw bytes, constant-time compare. */
export function verifySignature(input: VerifySignatureInput): SignatureCheck {
  const { header, body, secrets, now = Date.now, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS } = input;
  if (secrets.length === 0 || secrets.some((secret) => secret === '')) {
    throw new GarmentPressError('verifySignature needs at least one non-empty secret');
  }
  if (!(toleranceSeconds >= 0)) throw new GarmentPressError(`tolerance must be a non-negative number of seconds, got ${toleranceSeconds}`);
  const parsed = parseSignatureHeader(header);
  if ('reason' in parsed) return reject(parsed.reason);

  const wellFormed = parsed.signatures.filter((v1) => V1_PATTERN.test(v1));
  const [firstSignature] = parsed.signatures;
  if (wellFormed.length === 0 && firstSignature !== undefined) return reject(describeMalformedV1(firstSignature));

  // In milliseconds: the current time is not rounded to t's whole seconds, so 300.5 s old is too old.
  const age = (now() - parsed.timestamp * 1000) / 1000;
  const seconds = (value: number) => Number(value.toFixed(3));
  if (age > toleranceSeconds) return reject(`timestamp too old: signed ${seconds(age)} s ago, tolerance is ${toleranceSeconds} s`);
  if (-age > toleranceSeconds)
    return reject(`timestamp in the future: signed ${seconds(-age)} s ahead, tolerance is ${toleranceSeconds} s`);

  const expected = secrets.map((secret) => Buffer.from(computeV1(secret, parsed.timestamp, body), 'hex'));
  const matches = wellFormed.some((v1) => {
    const received = Buffer.from(v1, 'hex');
    return expected.some((digest) => digest.length === received.length && timingSafeEqual(digest, received));
  });
  if (matches) return { accepted: true, timestamp: parsed.timestamp };
  const secretHint = secrets.some((secret) => secret !== secret.trim()) ? ' (a secret has leading or trailing whitespace)' : '';
  return reject(`no v1 signature matches the raw body with the given secret${secrets.length > 1 ? 's' : ''}${secretHint}`);
}

function computeV1(secret: string, timestamp: number, body: Uint8Array | string): string {
  if (secret === '') throw new GarmentPressError('signing secret is empty');
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(buildSignedPayload(timestamp, body)).digest('hex');
}

function describeMalformedV1(v1: string): string {
  if (/^[0-9a-fA-F]{64}$/.test(v1)) return 'v1 must be lowercase hex';
  if (/^[0-9a-fA-F]*$/.test(v1)) return `v1 must be 64 hex characters, got ${v1.length}`;
  return 'v1 is not hex';
}

function assertTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new GarmentPressError(`signature timestamp must be whole non-negative Unix seconds, got ${timestamp}`);
  }
}

function toBytes(body: Uint8Array | string): Buffer {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // Callers that hand over parsed JSON break the signature; say so instead of failing obscurely.
  throw new GarmentPressError('the body must be the raw request bytes (Buffer or string), not a parsed object');
}

function reject(reason: string): SignatureCheck {
  return { accepted: false, reason };
}

function truncate(text: string): string {
  return text.length > 20 ? `${text.slice(0, 20)}…` : text;
}
