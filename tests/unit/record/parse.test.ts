import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/lib/record/parse.ts';

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
