import { isUtf8 } from 'node:buffer';

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
 * Parses JSON text, or says where and why it is not JSON.
 * @example parseJson('{"a":}') → { ok: false, error: { line: 1, column: 6, message: 'unexpected "}"' } }
 */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: JsonSyntaxError } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const { offset, message } = locateSyntaxError(text, (error as Error).message);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    return { ok: false, error: { line, column, message } };
  }
}

/** V8 gives no position for some mistakes, so a small scanner finds the first offending character. */
function locateSyntaxError(text: string, engineMessage: string): { offset: number; message: string } {
  let at = 0;
  const fail = (expected: string): never => {
    const found = at >= text.length ? 'end of file' : JSON.stringify(text[at]);
    throw { offset: at, message: `expected ${expected}, got ${found}` };
  };
  const space = () => {
    while (/[ \t\n\r]/.test(text[at] ?? '')) at++;
  };
  const literal = (word: string) => {
    for (const ch of word) if (text[at++] !== ch) (at--, fail(`${JSON.stringify(word)}`));
  };
  const string = () => {
    at++;
    while (text[at] !== '"') {
      const ch = text[at];
      if (ch === undefined) fail('a closing quote');
      if (ch! < ' ') fail('an escaped control character');
      if (ch === '\\') {
        at++;
        if (text[at] === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail('four hex digits after \\u');
          at += 4;
        } else if (!'"\\/bfnrt'.includes(text[at] ?? 'x')) fail('a valid escape');
      }
      at++;
    }
    at++;
  };
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at));
    if (!match) fail('a number');
    at += match![0].length;
  };
  const value = (): void => {
    space();
    const ch = text[at];
    if (ch === '{') return members('}', () => {
      space();
      if (text[at] !== '"') fail('a double-quoted property name');
      string();
      space();
      if (text[at] !== ':') fail('":"');
      at++;
      value();
    });
    if (ch === '[') return members(']', value);
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail('a JSON value');
  };
  const members = (close: string, member: () => void) => {
    at++;
    space();
    if (text[at] === close) return void at++;
    for (;;) {
      member();
      space();
      if (text[at] === close) return void at++;
      if (text[at] !== ',') fail(`"," or "${close}"`);
      at++;
    }
  };
  try {
    value();
    space();
    if (at < text.length) fail('end of file');
  } catch (thrown) {
    if (thrown && typeof thrown === 'object' && 'offset' in thrown) return thrown as { offset: number; message: string };
    throw thrown;
  }
  return { offset: 0, message: engineMessage };
}
