import { isUtf8 } from 'node:buffer';
import { byteOrderMarkLength, isSpace, objectMembers, skipSpace } from '../json-members.ts';
import { recordFromBytes, type GarmentRecord } from '../record/index.ts';
import { closeBidiInRecord } from '../site/bidi-closed.ts';

/** A revision's record as read from its JSON, with the bytes of each of its top-level values. */
export interface RevisionRecord {
  record: GarmentRecord;
  /** Each top-level member's value as written, known to be that member's whole value; empty when not known. */
  values: Map<string, Buffer>;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;
/** Where a member of the top level starts in JSON written with two spaces of indent (`JSON.stringify(record, null, 2)`, as records are). */
const TOP_LEVEL_LINE = Buffer.from('\n  "');

/** The record published now, read already, with its JSON's top-level values, found by reading its structure. */
export function latestRevisionRecord(bytes: Uint8Array, record: GarmentRecord): RevisionRecord {
  return { record, values: scannedValues(asBuffer(bytes)) ?? new Map() };
}

/**
 * A kept revision's record, the value recordFromBytes reads, but sharing with the revision after it
 * (`next`) every top-level value written as there: revisions differ in a few parts, and only those are
 * parsed (and compared: a part shared is the same value). The members are found where lines of two
 * spaces' indent begin; each is either written as `next`'s member (a whole JSON value) or parsed
 * alone, so no bracket or string can be open across them, and the JSON is read whole otherwise.
 * Its text's bidirectional formatting is closed field by field, as the latest record's is for its pages.
 * Throws as recordFromBytes does.
 */
export function keptRevisionRecord(bytes: Uint8Array, next: RevisionRecord | undefined): RevisionRecord {
  const kept = readRevisionRecord(bytes, next);
  closeBidiInRecord(kept.record, bytes);
  return kept;
}

function readRevisionRecord(bytes: Uint8Array, next: RevisionRecord | undefined): RevisionRecord {
  const buffer = asBuffer(bytes);
  const lines = next && next.values.size > 0 && isUtf8(buffer) ? indentedValues(buffer) : undefined;
  if (!lines) return { record: recordFromBytes(bytes), values: new Map() };
  const record: Record<string, unknown> = {};
  try {
    for (const [key, value] of lines) {
      const same = next!.values.get(key);
      record[key] = same?.equals(value) ? next!.record[key as keyof GarmentRecord] : JSON.parse(value.toString('utf8'));
    }
  } catch {
    // Not members after all (or not JSON): read whole, for the error and where it is, as recordFromBytes says it.
    return { record: recordFromBytes(bytes), values: new Map() };
  }
  return { record: record as unknown as GarmentRecord, values: lines };
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Where the object starts: after a byte order mark and white space. */
function objectStart(bytes: Buffer): number {
  return skipSpace(bytes, byteOrderMarkLength(bytes));
}

/** The top-level values of a JSON object (valid JSON: the record published now), by reading its structure. */
function scannedValues(bytes: Buffer): Map<string, Buffer> | undefined {
  const values = new Map<string, Buffer>();
  try {
    for (const member of objectMembers(bytes, byteOrderMarkLength(bytes))) {
      const key = plainKey(bytes, member.keyStart, member.keyEnd);
      if (key === undefined || values.has(key)) return undefined;
      values.set(key, bytes.subarray(member.valueStart, member.valueEnd));
    }
    return values;
  } catch {
    return undefined;
  }
}

/**
 * The top-level members as lines of two spaces' indent begin them, each value's bytes (what lies
 * between its colon and its comma, or the object's end); undefined when the text around them is not
 * that of such members (a member on the line of another, a key escaped or repeated).
 */
function indentedValues(bytes: Buffer): Map<string, Buffer> | undefined {
  const values = new Map<string, Buffer>();
  const starts: number[] = [];
  for (let at = bytes.indexOf(TOP_LEVEL_LINE); at !== -1; at = bytes.indexOf(TOP_LEVEL_LINE, at + TOP_LEVEL_LINE.length))
    starts.push(at + TOP_LEVEL_LINE.length - 1);
  const open = objectStart(bytes);
  if (starts.length === 0 || bytes[open] !== OPEN_BRACE || skipSpace(bytes, open + 1) !== starts[0]) return undefined;
  for (const [i, keyStart] of starts.entries()) {
    const last = i === starts.length - 1;
    const keyEnd = bytes.indexOf(QUOTE, keyStart + 1) + 1;
    const key = keyEnd > 0 ? plainKey(bytes, keyStart, keyEnd) : undefined;
    const colon = skipSpace(bytes, keyEnd);
    if (key === undefined || values.has(key) || bytes[colon] !== COLON) return undefined;
    // The value ends before the comma (the object's closing brace, for the last) that white space alone follows.
    let end = skipBackSpace(bytes, last ? bytes.length : starts[i + 1]!);
    if (bytes[end - 1] !== (last ? CLOSE_BRACE : COMMA)) return undefined;
    end = skipBackSpace(bytes, end - 1);
    const valueStart = skipSpace(bytes, colon + 1);
    if (valueStart >= end) return undefined;
    values.set(key, bytes.subarray(valueStart, end));
  }
  return values;
}

/** Just after the last byte before `end` that is not JSON's white space. */
function skipBackSpace(bytes: Buffer, end: number): number {
  while (end > 0 && isSpace(bytes[end - 1]!)) end--;
  return end;
}

/** A key (its quotes included) of printable ASCII without escapes, as a record's keys are; undefined otherwise, or for `__proto__`, which an assignment would not make a member. */
function plainKey(bytes: Buffer, keyStart: number, keyEnd: number): string | undefined {
  if (bytes[keyStart] !== QUOTE || bytes[keyEnd - 1] !== QUOTE || keyEnd - keyStart < 2) return undefined;
  for (let at = keyStart + 1; at < keyEnd - 1; at++) {
    const byte = bytes[at]!;
    if (byte < 0x20 || byte > 0x7e || byte === 0x5c) return undefined;
  }
  const key = bytes.toString('latin1', keyStart + 1, keyEnd - 1);
  return key === '__proto__' ? undefined : key;
}
