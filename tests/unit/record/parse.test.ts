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
    ['\uFEFF{}', 1, 1, 'expected a JSON value, got "\uFEFF" (U+FEFF)'],
    ['{"a":\u00A01}', 1, 6, 'expected a JSON value, got "\u00A0" (U+00A0)'],
    ['[1]\u{1F600}', 1, 4, 'expected end of file, got "\u{1F600}" (U+1F600)'],
  ])('locates the mistake in %j at line %i, column %i', (text, line, column, message) => {
    expect(parseJson(text)).toEqual({ ok: false, error: { line, column, message } });
  });

  it('finds a mistake deep inside nested arrays without running out of stack', () => {
    expect(parseJson(`{"junk": ${'['.repeat(100_000)},`)).toEqual({
      ok: false,
      error: { line: 1, column: 100_010, message: 'expected a JSON value, got ","' },
    });
  });

  it.each([
    [
      'at the top level',
      '{\n  "a": 1,\n  "a": 2\n}',
      3,
      3,
      'property name "a" repeats the one at line 2, column 3 in the top-level object',
    ],
    [
      'in a nested object',
      '{"b": {"x": [1, {"y": 2, "y": 3}]}}',
      1,
      26,
      'property name "y" repeats the one at line 1, column 18 in the object at /b/x/1',
    ],
    [
      'written with an escape',
      '{"a": 1, "\\u0061": 2}',
      1,
      10,
      'property name "\\u0061" repeats the one at line 1, column 2 in the top-level object',
    ],
  ])('refuses a property name repeated %s, which parsers read differently', (_, text, line, column, message) => {
    expect(parseJson(text)).toEqual({ ok: false, error: { line, column, message } });
  });

  it('accepts a number of any length when the text is scanned for where a mistake is', () => {
    // An escaped colon makes parseJson scan the whole text.
    expect(parseJson(`{"a": 0.${'9'.repeat(500)}, "b": "x\\u003ay"}`)).toMatchObject({ ok: true, value: { b: 'x:y' } });
    expect(parseJson(`{"a": 0.${'9'.repeat(500)}, "a": 1}`)).toMatchObject({ ok: false, error: { line: 1, column: 511 } });
  });

  it('accepts the same name in different objects', () => {
    expect(parseJson('{"a": {"x": 1}, "b": [{"x": 1}, {"x": 2}], "x": 0}')).toMatchObject({ ok: true });
  });

  it.each([
    ['a first half', '{"a": "x\\ud800y"}', 9, '\\ud800'],
    ['a first half at the end of a string', '{"a": "x\\uD83D"}', 9, '\\uD83D'],
    ['a first half followed by another first half', '{"a": "\\ud83d\\ud83d"}', 8, '\\ud83d'],
    ['a second half', '{"a": "\\udc00"}', 8, '\\udc00'],
  ])('refuses a lone surrogate escape: %s', (_, text, column, escape) => {
    expect(parseJson(text)).toEqual({
      ok: false,
      error: {
        line: 1,
        column,
        message: `expected a Unicode character, got ${escape}, half of a UTF-16 surrogate pair without the other half`,
      },
    });
  });

  it.each([
    ['a large exponent', '{"a": [1, 1e400]}', 11, '1e400'],
    ['a negative one', '{"a": -2.5E+309}', 7, '-2.5E+309'],
    // Its first 40 digits and its length: the first 40 alone would read as a number a double holds.
    ['a long run of digits', `{"a": ${'9'.repeat(400)}}`, 7, `${'9'.repeat(40)}… (400 characters)`],
  ])('refuses a number too large for a double: %s', (_, text, column, shown) => {
    expect(parseJson(text)).toEqual({
      ok: false,
      error: { line: 1, column, message: `expected a number a double can hold (I-JSON), got ${shown}, which reads as Infinity` },
    });
  });

  it('refuses an integer written past 2^53, which would be read as another number', () => {
    expect(parseJson('{"a": [1, 9007199254740993]}')).toEqual({
      ok: false,
      error: {
        line: 1,
        column: 11,
        message:
          'expected an integer a double holds exactly, at most 9007199254740991 either side of 0 (I-JSON), got 9007199254740993, which reads as 9007199254740992',
      },
    });
    expect(parseJson('[-9007199254740992]')).toMatchObject({ ok: false, error: { column: 2 } });
  });

  it('accepts integers up to 2^53 - 1, and large numbers written with a fraction or an exponent', () => {
    expect(parseJson('[9007199254740991, -9007199254740991, 1e20, 12345678901234567890.5]')).toEqual({
      ok: true,
      value: [9007199254740991, -9007199254740991, 1e20, 12345678901234567000],
    });
  });

  it('accepts numbers a double holds, however they are written, and tiny ones that read as 0', () => {
    expect(parseJson('[1.7976931348623157e308, -5e-324, 1e-400, 0.1e2]')).toEqual({
      ok: true,
      value: [1.7976931348623157e308, -5e-324, 0, 10],
    });
  });

  it('accepts a surrogate pair written as escapes, and an escaped backslash before "u"', () => {
    expect(parseJson('{"a": "\\ud83d\\ude00", "b": "\\\\ud800"}')).toEqual({ ok: true, value: { a: '😀', b: '\\ud800' } });
  });
});

describe('decodeJsonBytes', () => {
  const bytes = (...parts: (string | number[])[]) =>
    Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));

  it('decodes UTF-8, dropping a byte order mark', () => {
    expect(decodeJsonBytes(bytes('{"a":"café – ✓ 😀"}'))).toEqual({ ok: true, text: '{"a":"café – ✓ 😀"}' });
    expect(decodeJsonBytes(bytes([0xef, 0xbb, 0xbf], '{}'))).toEqual({ ok: true, text: '{}' });
    expect(decodeJsonBytes(new Uint8Array(0))).toEqual({ ok: true, text: '' });
  });

  it.each([
    ['a byte that starts no character', bytes([0xff]), 1, 1, 'FF'],
    ['a Latin-1 letter after UTF-8 text', bytes('{\n  "a": "é', [0xe9]), 2, 10, 'E9'],
    ['a character cut short by the end of the file', bytes('ab\n', [0xe2, 0x82]), 2, 1, 'E2'],
    ['a lead byte followed by no continuation', bytes('"x', [0xc3], '('), 1, 3, 'C3'],
    ['an encoded surrogate', bytes('"', [0xed, 0xa0, 0x80]), 1, 2, 'ED'],
    ['an overlong encoding', bytes([0xc0, 0xaf]), 1, 1, 'C0'],
  ])('says where %s is', (_, input, line, column, byte) => {
    expect(decodeJsonBytes(input)).toEqual({
      ok: false,
      error: { line, column, message: `byte 0x${byte} is not part of a UTF-8 character` },
    });
  });
});
