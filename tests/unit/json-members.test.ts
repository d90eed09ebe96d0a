import { describe, expect, it } from 'vitest';
import { memberKey, nestingDepth, NotJsonObjectError, objectMembers } from '../../src/lib/json-members.ts';

/** Each top-level member of JSON text as its key and its value's text. */
function members(text: string): Record<string, string> {
  const bytes = Buffer.from(text);
  return Object.fromEntries(
    [...objectMembers(bytes, 0)].map((member) => [memberKey(bytes, member), bytes.toString('utf8', member.valueStart, member.valueEnd)]),
  );
}

describe('objectMembers', () => {
  it("finds where each top-level member's value starts and ends, strings with escaped quotes and brackets included", () => {
    expect(members('{ "a" : "x\\"}]" , "b":[{"c":"]"}],"d":-1.50e3 ,"e\\u0066":null}')).toEqual({
      a: '"x\\"}]"',
      b: '[{"c":"]"}]',
      d: '-1.50e3',
      ef: 'null',
    });
  });

  it('keeps text outside ASCII as written, its bytes counted as bytes', () => {
    expect(members('{"näme": "€ 5", "b": [ "ü" ] }')).toEqual({ näme: '"€ 5"', b: '[ "ü" ]' });
  });

  it('reads an empty object as no members, and refuses what is not a JSON object', () => {
    expect(members(' {\n} ')).toEqual({});
    for (const text of ['[]', '"a"', '{"a":{}', '{"a" 1}', '{"a":"unterminated}', '{"a":}']) {
      expect(() => members(text), text).toThrow(NotJsonObjectError);
    }
  });
});

describe('nestingDepth', () => {
  it('counts the deepest brackets, those inside strings aside', () => {
    expect(nestingDepth(Buffer.from('{"a": [1, "]"]}'))).toBe(2);
    expect(nestingDepth(Buffer.from('{"a": "[[[[\\"[[", "b": {"c": [[{}]]}}'))).toBe(5);
    expect(nestingDepth(Buffer.from('7'))).toBe(0);
    expect(nestingDepth(Buffer.from(`${'['.repeat(300)}${']'.repeat(300)}`))).toBe(300);
  });

  it('stops counting inside a string that is never closed', () => {
    expect(nestingDepth(Buffer.from('[["[[[['))).toBe(2);
  });
});
