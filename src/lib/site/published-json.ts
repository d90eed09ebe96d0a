import type { Links } from '../record/types.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Where a member of an object is in JSON bytes: its key (quotes included) and its value. */
interface MemberPlace {
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}

/**
 * The JSON twin of a record file: the file's bytes with the value of `links` replaced, and nothing
 * else changed (spacing, key order, escapes and numbers as written). It works on the bytes, so a
 * record is never serialised and encoded again. The bytes must be a JSON object, as a checked
 * record file is (what is read of them is checked: when `links` is found from its end, the bytes
 * before it are not read); a byte order mark is dropped, and every top-level `links` is replaced
 * (checking refuses repeated names already; this is a second guard).
 */
export function publishedJson(source: Uint8Array, links: Links): Buffer {
  const bytes = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
  const start = UTF8_BOM.every((byte, i) => bytes[i] === byte) ? UTF8_BOM.length : 0;
  const pieces: Uint8Array[] = [];
  let copied = start;
  const only = onlyLinksMember(bytes);
  const linksMembers = only ? [only] : [...topLevelMembers(bytes, start)].filter((member) => keyOf(bytes, member) === 'links');
  for (const member of linksMembers) {
    pieces.push(bytes.subarray(copied, member.valueStart), Buffer.from(linksJson(bytes, member, links)));
    copied = member.valueEnd;
  }
  pieces.push(bytes.subarray(copied));
  return Buffer.concat(pieces);
}

/** The key `links` written without escapes, and its end, which is what is searched for: quotes are so frequent in JSON that a search for one is slow. */
const LINKS_KEY = Buffer.from('"links"');
const LINKS_KEY_END = Buffer.from('ks"');
/** How an escaped letter of `links` starts (`\u006c`, `\u0073`…): a key spelled so is `links` too. */
const ESCAPED_LETTERS = [Buffer.from('\\u006'), Buffer.from('\\u007')];

/**
 * The top-level `links` member, found from its one unescaped spelling, when the bytes can hold no
 * other and only members follow it to the object's end: a record writes `links` near its end, and
 * this spares scanning the rest. Null when unsure; topLevelMembers then reads every member.
 */
function onlyLinksMember(bytes: Buffer): MemberPlace | null {
  const written = placesOf(bytes, LINKS_KEY, LINKS_KEY_END);
  if (written.length !== 1 || ESCAPED_LETTERS.some((escape) => bytes.includes(escape))) return null;
  const keyStart = written[0]!;
  // Unescaped and after `{` or `,`, the quote opens a key; only at the top level does the object close after its members.
  let before = keyStart - 1;
  while (before >= 0 && isSpace(bytes[before]!)) before--;
  if (bytes[before] !== OPEN_BRACE && bytes[before] !== COMMA) return null;
  try {
    const member = memberAt(bytes, keyStart);
    let at = afterMember(bytes, member.valueEnd);
    while (bytes[at] !== CLOSE_BRACE) at = afterMember(bytes, memberAt(bytes, at).valueEnd);
    return skipSpace(bytes, at + 1) === bytes.length ? member : null;
  } catch {
    return null;
  }
}

/** `links` laid out as the member it replaces: indented as its line when the member has a line of its own, else on one line. */
function linksJson(bytes: Buffer, { keyStart }: MemberPlace, links: Links): string {
  let lineStart = keyStart;
  while (lineStart > 0 && (bytes[lineStart - 1] === 0x20 || bytes[lineStart - 1] === 0x09)) lineStart--;
  const indent = bytes.toString('latin1', lineStart, keyStart);
  // JSON.stringify indents by at most ten characters.
  if (bytes[lineStart - 1] !== LINE_FEED || indent === '' || indent.length > 10) return JSON.stringify(links);
  const lineBreak = bytes[lineStart - 2] === CARRIAGE_RETURN ? '\r\n' : '\n';
  return JSON.stringify(links, null, indent).replaceAll('\n', `${lineBreak}${indent}`);
}

function keyOf(bytes: Buffer, { keyStart, keyEnd }: MemberPlace): string {
  const raw = bytes.toString('utf8', keyStart, keyEnd);
  return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
}

/** Where `needle` is in the bytes, found by its `end`, which is rarer. */
function placesOf(bytes: Buffer, needle: Buffer, end: Buffer): number[] {
  const places: number[] = [];
  for (let at = bytes.indexOf(end); at !== -1; at = bytes.indexOf(end, at + end.length)) {
    const start = at + end.length - needle.length;
    if (start >= 0 && needle.equals(bytes.subarray(start, start + needle.length))) places.push(start);
  }
  return places;
}

/** The members of the object the bytes hold, from `at`, in order. */
function* topLevelMembers(bytes: Buffer, at: number): Generator<MemberPlace> {
  at = skipSpace(bytes, at);
  if (bytes[at] !== OPEN_BRACE) throw notAnObject();
  at = skipSpace(bytes, at + 1);
  while (bytes[at] !== CLOSE_BRACE) {
    const member = memberAt(bytes, at);
    yield member;
    at = afterMember(bytes, member.valueEnd);
  }
}

/** The member whose key starts at `keyStart`. */
function memberAt(bytes: Buffer, keyStart: number): MemberPlace {
  const keyEnd = stringEnd(bytes, keyStart);
  const colon = skipSpace(bytes, keyEnd);
  if (bytes[colon] !== COLON) throw notAnObject();
  const valueStart = skipSpace(bytes, colon + 1);
  return { keyStart, keyEnd, valueStart, valueEnd: jsonValueEnd(bytes, valueStart) };
}

/** Where the next member's key starts after a member's value, or where the object's closing brace is. */
function afterMember(bytes: Buffer, valueEnd: number): number {
  const at = skipSpace(bytes, valueEnd);
  if (bytes[at] === COMMA) return skipSpace(bytes, at + 1);
  if (bytes[at] !== CLOSE_BRACE) throw notAnObject();
  return at;
}

function skipSpace(bytes: Buffer, at: number): number {
  while (isSpace(bytes[at]!)) at++;
  return at;
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === LINE_FEED || byte === CARRIAGE_RETURN || byte === 0x09;
}

/** Just after the string that starts at `at`. */
function stringEnd(bytes: Buffer, at: number): number {
  if (bytes[at] !== QUOTE) throw notAnObject();
  for (let end = at + 1; end < bytes.length; end++) {
    const byte = bytes[end];
    if (byte === BACKSLASH) end++;
    else if (byte === QUOTE) return end + 1;
  }
  throw notAnObject();
}

/** Just after the JSON value that starts at `at`. */
function jsonValueEnd(bytes: Buffer, at: number): number {
  const first = bytes[at];
  if (first === QUOTE) return stringEnd(bytes, at);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: it ends where the member does.
    const start = at;
    while (at < bytes.length && !isValueEnd(bytes[at]!)) at++;
    if (at === start) throw notAnObject();
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
  throw notAnObject();
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
  return (
    byte === COMMA ||
    byte === CLOSE_BRACE ||
    byte === CLOSE_BRACKET ||
    byte === 0x20 ||
    byte === LINE_FEED ||
    byte === CARRIAGE_RETURN ||
    byte === 0x09
  );
}

function notAnObject(): Error {
  return new Error('the record file is not a JSON object');
}
