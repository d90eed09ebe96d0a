import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, writeJsonLines } from '../../src/lib/json-lines.ts';

const fileIn = () => path.join(mkdtempSync(path.join(tmpdir(), 'json-lines-')), 'values.jsonl');

describe('writeJsonLines and parseJsonLines', () => {
  it('write a value a line and read the same values back', async () => {
    const file = fileIn();
    const values = [
      { a: 'line\nbreak', é: '𝄞' },
      [1, 2],
      'text',
      null,
      ...Array.from({ length: 20_000 }, (_, i) => ({ i, pad: 'x'.repeat(100) })),
    ];
    await writeJsonLines(file, values);
    const bytes = readFileSync(file);
    expect(bytes.toString('utf8').split('\n')).toHaveLength(values.length + 1);
    expect(parseJsonLines(bytes)).toEqual(values);
  });

  it('read nothing from an empty file, and refuse a file whose last line was cut short', () => {
    expect(parseJsonLines(Buffer.alloc(0))).toEqual([]);
    expect(() => parseJsonLines(Buffer.from('{"a":1}\n{"b":'))).toThrow(SyntaxError);
    expect(() => parseJsonLines(Buffer.from('{"a":1}\n{"b":2}'))).toThrow(SyntaxError);
  });
});
