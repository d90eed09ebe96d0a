import {
  afterMember,
  byteOrderMarkLength,
  isSpace,
  type JsonMember,
  memberAt,
  memberKey,
  objectMembers,
  skipSpace,
} from '../json-members.ts';
import type { Links } from '../record/types.ts';

const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

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
  const start = byteOrderMarkLength(bytes);
  const pieces: Uint8Array[] = [];
  let copied = start;
  const only = onlyLinksMember(bytes);
  const linksMembers = only ? [only] : [...objectMembers(bytes, start)].filter((member) => memberKey(bytes, member) === 'links');
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
 * this spares scanning the rest. Null when unsure; every member is then read.
 */
function onlyLinksMember(bytes: Buffer): JsonMember | null {
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
function linksJson(bytes: Buffer, { keyStart }: JsonMember, links: Links): string {
  let lineStart = keyStart;
  while (lineStart > 0 && (bytes[lineStart - 1] === 0x20 || bytes[lineStart - 1] === 0x09)) lineStart--;
  const indent = bytes.toString('latin1', lineStart, keyStart);
  // JSON.stringify indents by at most ten characters.
  if (bytes[lineStart - 1] !== LINE_FEED || indent === '' || indent.length > 10) return JSON.stringify(links);
  const lineBreak = bytes[lineStart - 2] === CARRIAGE_RETURN ? '\r\n' : '\n';
  return JSON.stringify(links, null, indent).replaceAll('\n', `${lineBreak}${indent}`);
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
