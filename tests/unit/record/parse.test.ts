import { describe, expect, it } from 'vitest';
import { decodeJsonBytes, parseJson } from '../../../src/lib/record/parse.ts';

describe('parseJson', () => {
  it('returns the value of valid JSON', () => {
    expect(parseJson('{"a":[1,true,null]}')).toEqual({ ok: true, value: { a: [1, true, null] } });
  });

  it.each([
    ['{"a":}', 1, 6, 'expected a JSON value, got "}"'],
    ['{\n  "a": 1,\n}', 3, 1, 'expected a double-quoted property name, got "}"'],
    ['{\n  "a": tru\n}', 2, 11, 'expected "true", got "\\n"'],
    ['[1 2]', 1, 4, 'expected "," or "]", got "2"'],
    ['{"a": 1', 1, 8, 'expected "," or "}", got end of file'],
    ['{"a":1} x', 1, 9, 'expected end of file, got "x"'],
    ['', 1, 1, 'expected a JSON value, got end of file'],
  ])('locates the mistake in %j at line %i, column %i', (text, line, column, message) => {
    expect(parseJson(text)).toEqual({ ok: false, error: { line, column, message } });
  });
});

describe('decodeJsonBytes', () => {
  const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

  it('decodes UTF-8, dropping a byte order mark', () => {
    expect(decodeJsonBytes(bytes('{"a":"café – ✓ 😀"}'))).toEqual({ ok: true, text: '{"a":"café – ✓ 😀"}' });
    expect(decodeJsonBytes(bytes([0xef, 0xbb, 0xbf], '{}'))).toEqual({ ok: true, text: '{}' });
    expect(decodeJsonBytes(new Uint8Array(0))).toEqual({ ok: true, text: '' });
  });

  it.each([
    ['a byte that starts no character', bytes([0xff]), 1, 1, 'FF'],
    ['a Latin-1 letter after UTF-8 text', bytes('{\n  "a": "é', [0xe9]), 2, 10, 'E9'],
    ['a character cut short by the end of the file', bytes('ab\n', [0xe2, 0x82]), 2, 1, 'E2'],
    ['a lead byte followed by no continuation', bytes('"x', [0xc3], '(') , 1, 3, 'C3'],
    ['an encoded surrogate', bytes('"', [0xed, 0xa0, 0x80]), 1, 2, 'ED'],
    ['an overlong encoding', bytes([0xc0, 0xaf]), 1, 1, 'C0'],
  ])('says where %s is', (_, input, line, column, byte) => {
    expect(decodeJsonBytes(input)).toEqual({ ok: false, error: { line, column, message: `byte 0x${byte} is not part of a UTF-8 character` } });
  });
});
