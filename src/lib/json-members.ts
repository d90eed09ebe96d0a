// Scanning JSON bytes for where things are, without parsing them: the members of an object, where
// a value ends, how deep brackets nest. The bytes are read as written (no value is decoded and
// written again), so a member's bytes can be kept or replaced exactly. UTF-8 never puts an ASCII
// byte inside a character, so the quotes, brackets and commas found are the JSON's own.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const SPACE = 0x20;
const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

const UTF8 = new TextDecoder();

/** Where a member of an object is in JSON bytes: its key (quotes included) and its value. */
export interface JsonMember {
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}

/** The bytes scanned are not the JSON object they were taken for. */
export class NotJsonObjectError extends Error {
  constructor() {
    super('the text is not a JSON object');
    this.name = 'NotJsonObjectError';
  }
}

/**
 * The members of the object the bytes hold from `at` (space before it skipped), in order.
 * @example [...objectMembers(Buffer.from('{"a": [1]}'), 0)] → [{ keyStart: 1, keyEnd: 4, valueStart: 6, valueEnd: 9 }]
 */
export function* objectMembers(bytes: Uint8Array, at: number): Generator<JsonMember> {
  at = skipSpace(bytes, at);
  if (bytes[at] !== OPEN_BRACE) throw new NotJsonObjectError();
  at = skipSpace(bytes, at + 1);
  while (bytes[at] !== CLOSE_BRACE) {
    const member = memberAt(bytes, at);
    yield member;
    at = afterMember(bytes, member.valueEnd);
  }
}

/** A member's key, its escapes read. */
export function memberKey(bytes: Uint8Array, { keyStart, keyEnd }: JsonMember): string {
  const raw = UTF8.decode(bytes.subarray(keyStart, keyEnd));
  return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
}

/** The member whose key starts at `keyStart`. */
export function memberAt(bytes: Uint8Array, keyStart: number): JsonMember {
  const keyEnd = stringEnd(bytes, keyStart);
  const colon = skipSpace(bytes, keyEnd);
  if (bytes[colon] !== COLON) throw new NotJsonObjectError();
  const valueStart = skipSpace(bytes, colon + 1);
  return { keyStart, keyEnd, valueStart, valueEnd: valueEnd(bytes, valueStart) };
}

/** Where the next member's key starts after a member's value, or where the object's closing brace is. */
export function afterMember(bytes: Uint8Array, end: number): number {
  const at = skipSpace(bytes, end);
  if (bytes[at] === COMMA) return skipSpace(bytes, at + 1);
  if (bytes[at] !== CLOSE_BRACE) throw new NotJsonObjectError();
  return at;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** How many bytes a UTF-8 byte order mark takes at the start of the bytes: 3, or 0 without one. */
export function byteOrderMarkLength(bytes: Uint8Array): number {
  return UTF8_BOM.every((byte, i) => bytes[i] === byte) ? UTF8_BOM.length : 0;
}

/** The first byte from `at` that is not JSON's white space. */
export function skipSpace(bytes: Uint8Array, at: number): number {
  while (isSpace(bytes[at]!)) at++;
  return at;
}

/** Whether a byte is JSON's white space: space, tab, line feed or carriage return. */
export function isSpace(byte: number): boolean {
  return byte === SPACE || byte === LINE_FEED || byte === CARRIAGE_RETURN || byte === TAB;
}

/** Just after the string that starts at `at`. */
function stringEnd(bytes: Uint8Array, at: number): number {
  if (bytes[at] !== QUOTE) throw new NotJsonObjectError();
  for (let end = at + 1; end < bytes.length; end++) {
    const byte = bytes[end];
    if (byte === BACKSLASH) end++;
    else if (byte === QUOTE) return end + 1;
  }
  throw new NotJsonObjectError();
}

/** Just after the JSON value that starts at `at`. */
function valueEnd(bytes: Uint8Array, at: number): number {
  const first = bytes[at];
  if (first === QUOTE) return stringEnd(bytes, at);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: it ends where the member does.
    const start = at;
    while (at < bytes.length && !isValueEnd(bytes[at]!)) at++;
    if (at === start) throw new NotJsonObjectError();
    return at;
  }
  let depth = 0;
  for (; at < bytes.length; at++) {
    const kind = STRUCTURE[bytes[at]!];
    if (kind === 0) continue;
    if (kind === STRING) at = stringEnd(bytes, at) - 1;
    else if (kind === OPENS) depth++;
    else if (--depth === 0) return at + 1;
  }
  throw new NotJsonObjectError();
}

/**
 * How deep arrays and objects nest in JSON bytes, brackets inside strings aside.
 * @example nestingDepth(Buffer.from('{"a": [1, "]"]}')) → 2
 */
export function nestingDepth(bytes: Uint8Array): number {
  let depth = 0;
  let deepest = 0;
  for (let at = 0; at < bytes.length; at++) {
    const kind = STRUCTURE[bytes[at]!];
    if (kind === 0) continue;
    if (kind === STRING) at = unclosedStringEnd(bytes, at) - 1;
    else if (kind === OPENS) deepest = Math.max(deepest, ++depth);
    else depth--;
  }
  return deepest;
}

/** Just after the string that starts at `at`, or the end of the bytes when it is not closed. */
function unclosedStringEnd(bytes: Uint8Array, at: number): number {
  try {
    return stringEnd(bytes, at);
  } catch {
    return bytes.length;
  }
}

const STRING = 1;
const OPENS = 2;
const CLOSES = 3;
/** What each byte does to a value's nesting: most bytes nothing (0). */
const STRUCTURE = new Uint8Array(256);
STRUCTURE[QUOTE] = STRING;
STRUCTURE[OPEN_BRACE] = STRUCTURE[OPEN_BRACKET] = OPENS;
STRUCTURE[CLOSE_BRACE] = STRUCTURE[CLOSE_BRACKET] = CLOSES;

function isValueEnd(byte: number): boolean {
  return byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isSpace(byte);
}
