import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../../src/lib/record/problem.ts';

describe('formatProblem', () => {
  it('writes file, pointer and message on one line', () => {
    expect(formatProblem({ severity: 'warning', file: 'records/a.svc.json', pointer: '/data/colors/0', message: 'names no item' })).toBe(
      'records/a.svc.json: /data/colors/0: warning: names no item',
    );
  });

  it('escapes what record text could use to forge a line, drive a terminal or reorder the report', () => {
    const message =
      'variant id "a\nrecords/b.svc.json: (record): fine" \u001b[2J bell\u0007 del\u007f csi\u009b ls\u2028 rlo\u202e tab\tkept';
    expect(formatProblem({ severity: 'error', file: 'a.json', pointer: '', message })).toBe(
      'a.json: (record): variant id "a\\u000Arecords/b.svc.json: (record): fine" \\u001B[2J bell\\u0007 del\\u007F csi\\u009B ls\\u2028 rlo\\u202E tab\tkept',
    );
  });
});
