import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonLines, writeJsonLines } from '../../src/lib/json-lines.ts';
import { mountSmallFilesystem } from '../support/small-filesystem.ts';

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

  it('fail with the disk full rather than leave a file cut short, when the last write runs out of space', async () => {
    const disk = mountSmallFilesystem('1m');
    try {
      // 600,000 characters, so one write, of 1.2 MB in UTF-8: more than the 1 MiB disk holds.
      const values = Array.from({ length: 600 }, (_, i) => ({ i, text: 'é'.repeat(1000) }));
      await expect(writeJsonLines(path.join(disk.dir, 'values.jsonl'), values)).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally {
      disk.unmount();
    }
  });
});
