import { memberKey, objectMembers } from '../json-members.ts';
import { decodeJsonBytes, parseJson } from '../record/parse.ts';

/** A publish request read: the record's text as sent and the callback URL, or why the request is refused (400). */
export type PublishRequestRead =
  | { ok: true; recordText: string; callbackUrl: string | null }
  | { ok: false; code: string; message: string };

const ENVELOPE_FIELDS = ['record', 'callback_url'];
const SHAPE =
  'expected a record (with schema_version) as the body, or { "record": {...} or "<record text>", "callback_url": "https://..." }';

/**
 * Reads a publish request body in one of its three forms, keeping the record's bytes as sent:
 * the body is the record (it has `schema_version`; callback_url in the query string); or
 * `{"record": {...}}`, whose `record` is taken as the exact text between its first and last
 * brace; or `{"record": "<the record's JSON text>"}`.
 * @example readPublishRequest(Buffer.from('{"record": {"a": 6.50}}'), null) → { ok: true, recordText: '{"a": 6.50}', callbackUrl: null }
 */
export function readPublishRequest(bytes: Uint8Array, queryCallbackUrl: string | null): PublishRequestRead {
  const decoded = decodeJsonBytes(bytes);
  if (!decoded.ok) {
    const { line, column, message } = decoded.error;
    return refuse('invalid_body', `the request body is not UTF-8 text: line ${line}, column ${column}: ${message}`);
  }
  const text = decoded.text;
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.error;
    return refuse('invalid_json', `the request body is not JSON: line ${line}, column ${column}: ${message}`);
  }
  const body = parsed.value;
  if (!isObject(body)) return refuse('invalid_request', `${SHAPE}, got ${kindOf(body)}`);
  if ('schema_version' in body) return { ok: true, recordText: text, callbackUrl: queryCallbackUrl };

  const unknown = Object.keys(body).filter((key) => !ENVELOPE_FIELDS.includes(key));
  if (unknown.length > 0) {
    return refuse(
      'invalid_request',
      `unknown field${unknown.length === 1 ? '' : 's'} ${unknown.map((key) => JSON.stringify(key.slice(0, 40))).join(', ')}; ${SHAPE}`,
    );
  }
  if (!('record' in body)) return refuse('invalid_request', `missing "record"; ${SHAPE}`);
  const bodyCallbackUrl = body.callback_url;
  if (bodyCallbackUrl !== undefined && bodyCallbackUrl !== null && typeof bodyCallbackUrl !== 'string') {
    return refuse('invalid_request', `"callback_url" must be a string, got ${kindOf(bodyCallbackUrl)}`);
  }
  if (typeof bodyCallbackUrl === 'string' && queryCallbackUrl !== null) {
    return refuse('invalid_request', 'callback_url is given both in the body and in the query string; give it once');
  }
  const callbackUrl = typeof bodyCallbackUrl === 'string' ? bodyCallbackUrl : queryCallbackUrl;

  if (typeof body.record === 'string') {
    const inner = parseJson(body.record.replace(/^\uFEFF/, ''));
    if (!inner.ok) {
      const { line, column, message } = inner.error;
      return refuse('invalid_request', `"record" as text must be a record's JSON text: line ${line}, column ${column}: ${message}`);
    }
    if (!isObject(inner.value)) return refuse('invalid_request', `"record" as text must hold a JSON object, got ${kindOf(inner.value)}`);
    return { ok: true, recordText: body.record.replace(/^\uFEFF/, ''), callbackUrl };
  }
  if (!isObject(body.record)) return refuse('invalid_request', `"record" must be a JSON object or its text, got ${kindOf(body.record)}`);
  // The record's exact text, found in the body as bytes (the body without a byte order mark, as parsed).
  const encoded = Buffer.from(text);
  const record = [...objectMembers(encoded, 0)].find((member) => memberKey(encoded, member) === 'record')!;
  return { ok: true, recordText: encoded.toString('utf8', record.valueStart, record.valueEnd), callbackUrl };
}

function refuse(code: string, message: string): PublishRequestRead {
  return { ok: false, code, message };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
