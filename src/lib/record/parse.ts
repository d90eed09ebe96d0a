import { isUtf8 } from 'node:buffer';
import { pointerToken } from './problem.ts';

/** Where and why a text is not JSON, or its bytes not UTF-8 text. */
export interface JsonSyntaxError {
  line: number;
  column: number;
  message: string;
}

/**
 * The text of JSON bytes, which must be UTF-8 (RFC 8259), without a byte order mark; or where the
 * first byte that is not UTF-8 is, so that no character is silently replaced.
 * @example decodeJsonBytes(Buffer.from([0x22, 0xff, 0x22])) → { ok: false, error: { line: 1, column: 2, message: 'byte 0xFF is not part of a UTF-8 character' } }
 */
export function decodeJsonBytes(bytes: Uint8Array): { ok: true; text: string } | { ok: false; error: JsonSyntaxError } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buffer)) return { ok: true, text: buffer.toString('utf8').replace(/^\uFEFF/, '') };
  // Valid UTF-8 survives decoding and encoding again unchanged, so the first changed byte is the first invalid one.
  const reencoded = Buffer.from(buffer.toString('utf8'), 'utf8');
  let offset = 0;
  while (buffer[offset] === reencoded[offset]) offset++;
  const lineStart = offset === 0 ? 0 : buffer.lastIndexOf(0x0a, offset - 1) + 1;
  const line = buffer.subarray(0, lineStart).filter((byte) => byte === 0x0a).length + 1;
  const column = buffer.toString('utf8', lineStart, offset).length + 1;
  const byte = buffer[offset]!.toString(16).toUpperCase().padStart(2, '0');
  return { ok: false, error: { line, column, message: `byte 0x${byte} is not part of a UTF-8 character` } };
}

/**
 * Parses JSON text, or says where and why it is not JSON. Beyond RFC 8259's grammar it refuses what
 * I-JSON (RFC 7493) refuses: a property name repeated in one object, which parsers resolve
 * differently (the published JSON keeps the record's bytes), a lone UTF-16 surrogate, a number
 * too large for a double (1e400), which JavaScript reads as Infinity and writes back as null, and
 * an integer past 2^53 written out, which it rounds (the page would show another number than the JSON).
 * @example parseJson('{"a":}') → { ok: false, error: { line: 1, column: 6, message: 'expected a JSON value, got "}"' } }
 */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: located(text, firstMistake(text) ?? { offset: 0, message: (error as Error).message }) };
  }
  const { namesAndColons, wellFormed, exact } = countsOf(value);
  if (colonsIn(text) !== namesAndColons || !wellFormed || !exact || ESCAPED_COLON.test(text)) {
    const mistake = firstMistake(text);
    if (mistake) return { ok: false, error: located(text, mistake) };
  }
  return { ok: true, value };
}

/** A colon written as an escape, which the count of colons misses. */
const ESCAPED_COLON = /\\u003[aA]/;

/** A JSON number, matched where the scanner is (sticky), however many digits it has. */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Where a string's plain run of characters stops: at its end, an escape or a control character. */
const STRING_STOP = /["\\\u0000-\u001f]/g;

/**
 * The names in a parsed value plus the colons in its strings, whether every string is Unicode text,
 * and whether every number may be as written (finite, and no integer past 2^53, which only the
 * text can tell for sure). A ":" of JSON text either follows a name or is a character of a string,
 * so the text has exactly as many unless a name repeats: the member JSON.parse dropped took a name with it.
 */
function countsOf(value: unknown): { namesAndColons: number; wellFormed: boolean; exact: boolean } {
  let namesAndColons = 0;
  let wellFormed = true;
  let exact = true;
  const pending = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') {
      namesAndColons += colonsIn(next);
      wellFormed &&= next.isWellFormed();
    } else if (typeof next === 'number') exact &&= Number.isFinite(next) && (Number.isSafeInteger(next) || !Number.isInteger(next));
    else if (Array.isArray(next)) for (const item of next) pending.push(item);
    else if (typeof next === 'object' && next !== null) {
      for (const name in next) {
        namesAndColons++;
        pending.push(name, (next as Record<string, unknown>)[name]);
      }
    }
  }
  return { namesAndColons, wellFormed, exact };
}

function colonsIn(text: string): number {
  let count = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) count++;
  return count;
}

function located(text: string, { offset, message }: Mistake): JsonSyntaxError {
  return { ...position(text, offset), message };
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

interface Mistake {
  offset: number;
  message: string;
}

/**
 * An object or array the scanner is inside: how it closes, the member it is at and, in an object,
 * the names seen so far (an array has none: a map per level made 5 MB of "[" take 5 s and 1.5 GB).
 */
interface Container {
  close: '}' | ']';
  names?: Map<string, number>;
  member: string | number;
}

/**
 * The first mistake in JSON text: V8 gives no position for some, and none flags repeated names or
 * lone surrogates. Containers are kept on a stack rather than recursed into, so no depth overflows.
 */
function firstMistake(text: string): Mistake | undefined {
  let at = 0;
  const containers: Container[] = [];
  const fail = (expected: string): never => {
    const found = at >= text.length ? 'end of file' : quotedCharacter(String.fromCodePoint(text.codePointAt(at)!));
    throw { offset: at, message: `expected ${expected}, got ${found}` };
  };
  const space = () => {
    while (text[at] === ' ' || text[at] === '\n' || text[at] === '\r' || text[at] === '\t') at++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[at] !== ch) fail(`${JSON.stringify(word)}`);
      at++;
    }
  };
  const string = () => {
    at++;
    for (;;) {
      STRING_STOP.lastIndex = at;
      at = STRING_STOP.test(text) ? STRING_STOP.lastIndex - 1 : text.length;
      const ch = text[at];
      if (ch === '"') break;
      if (ch === undefined) fail('a closing quote');
      if (ch! < ' ') fail('an escaped control character');
      if (ch === '\\') {
        at++;
        if (text[at] === 'u') {
          const code = hexAt(at + 1);
          if (Number.isNaN(code)) fail('four hex digits after \\u');
          if (isLowSurrogate(code)) unpaired(at - 1);
          if (isHighSurrogate(code)) {
            if (!(text.startsWith('\\u', at + 5) && isLowSurrogate(hexAt(at + 7)))) unpaired(at - 1);
            at += 6;
          }
          at += 4;
        } else if (!'"\\/bfnrt'.includes(text[at] ?? 'x')) fail('a valid escape');
      }
      at++;
    }
    at++;
  };
  const hexAt = (offset: number) =>
    /^[0-9a-fA-F]{4}$/.test(text.slice(offset, offset + 4)) ? parseInt(text.slice(offset, offset + 4), 16) : NaN;
  const unpaired = (escapeAt: number): never => {
    throw {
      offset: escapeAt,
      message: `expected a Unicode character, got ${text.slice(escapeAt, escapeAt + 6)}, half of a UTF-16 surrogate pair without the other half`,
    };
  };
  const number = () => {
    NUMBER.lastIndex = at;
    if (!NUMBER.test(text)) fail('a number');
    const written = text.slice(at, NUMBER.lastIndex);
    const read = Number(written);
    if (!Number.isFinite(read)) {
      throw { offset: at, message: `expected a number a double can hold (I-JSON), got ${shortened(written)}, which reads as Infinity` };
    }
    if (!Number.isSafeInteger(read) && /^-?\d+$/.test(written)) {
      throw {
        offset: at,
        message: `expected an integer a double holds exactly, at most ${Number.MAX_SAFE_INTEGER} either side of 0 (I-JSON), got ${shortened(written)}, which reads as ${read}`,
      };
    }
    at = NUMBER.lastIndex;
  };
  const name = () => {
    space();
    if (text[at] !== '"') fail('a double-quoted property name');
    const start = at;
    string();
    const quoted = text.slice(start, at);
    const key: string = quoted.includes('\\') ? JSON.parse(quoted) : quoted.slice(1, -1);
    const container = containers.at(-1)!;
    container.names ??= new Map();
    const first = container.names.get(key);
    if (first !== undefined) {
      const { line, column } = position(text, first);
      const where = containers
        .slice(0, -1)
        .map((outer) => `/${pointerToken(outer.member)}`)
        .join('');
      throw {
        offset: start,
        message: `property name ${quoted} repeats the one at line ${line}, column ${column} in ${where ? `the object at ${where}` : 'the top-level object'}`,
      };
    }
    container.names.set(key, start);
    container.member = key;
    space();
    if (text[at] !== ':') fail('":"');
    at++;
  };
  // Reads a value; an object or array is only opened, and true returned when a first member follows.
  const value = (): boolean => {
    space();
    const ch = text[at];
    if (ch === '{' || ch === '[') {
      const close = ch === '{' ? '}' : ']';
      at++;
      space();
      if (text[at] === close) {
        at++;
        return false;
      }
      containers.push({ close, member: 0 });
      if (close === '}') name();
      return true;
    }
    if (ch === '"') string();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) number();
    else return fail('a JSON value');
    return false;
  };
  try {
    for (let opened = value(); ; ) {
      if (opened) {
        opened = value();
        continue;
      }
      const container = containers.at(-1);
      if (container === undefined) break;
      space();
      if (text[at] === container.close) {
        at++;
        containers.pop();
        continue;
      }
      if (text[at] !== ',') fail(`"," or "${container.close}"`);
      at++;
      if (container.close === '}') name();
      else container.member = (container.member as number) + 1;
      opened = value();
    }
    space();
    if (at < text.length) fail('end of file');
  } catch (thrown) {
    if (thrown && typeof thrown === 'object' && 'offset' in thrown) return thrown as Mistake;
    throw thrown;
  }
  return undefined;
}

/**
 * A number as written, for a message: its first 40 characters, and how many there are when it has more.
 * @example shortened('1' + '0'.repeat(400)) → '1000000000000000000000000000000000000000… (401 characters)'
 */
function shortened(written: string): string {
  return written.length > 40 ? `${written.slice(0, 40)}… (${written.length} characters)` : written;
}

/**
 * A character for a message, quoted; past ASCII also by its code point, since a byte order mark or a
 * no-break space shows as nothing or as a space.
 * @example quotedCharacter('\uFEFF') → '"\uFEFF" (U+FEFF)'
 */
function quotedCharacter(character: string): string {
  const code = character.codePointAt(0)!;
  const quoted = JSON.stringify(character);
  return code > 0x7e ? `${quoted} (U+${code.toString(16).toUpperCase().padStart(4, '0')})` : quoted;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
