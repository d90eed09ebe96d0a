import { describe, expect, it } from 'vitest';
import { byteRange } from '../../../src/lib/serve/byte-range.ts';
import { chooseCoding } from '../../../src/lib/serve/content-coding.ts';

describe('chooseCoding', () => {
  it.each([
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['zstd, gzip', 'zstd'],
    ['br;q=0.5, GZIP;q=0.8', 'gzip'],
    ['*', 'br'],
    ['gzip, *;q=0.1', 'gzip'],
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip;q=0', undefined],
    ['br;q=0, *', 'zstd'],
  ])('%j → %s', (header, coding) => {
    expect(chooseCoding(header)).toBe(coding);
  });
});

describe('byteRange', () => {
  it.each([
    ['bytes=0-99', 1000, { kind: 'part', start: 0, end: 99 }],
    ['bytes=990-2000', 1000, { kind: 'part', start: 990, end: 999 }],
    ['bytes=500-', 1000, { kind: 'part', start: 500, end: 999 }],
    ['bytes=-10', 1000, { kind: 'part', start: 990, end: 999 }],
    ['bytes=-5000', 1000, { kind: 'part', start: 0, end: 999 }],
    ['bytes=1000-', 1000, { kind: 'unsatisfiable' }],
    ['bytes=-0', 1000, { kind: 'unsatisfiable' }],
    ['bytes=0-0', 0, { kind: 'unsatisfiable' }],
    [undefined, 1000, { kind: 'whole' }],
    ['bytes=5-1', 1000, { kind: 'whole' }],
    ['bytes=0-1, 4-5', 1000, { kind: 'whole' }],
    ['items=0-1', 1000, { kind: 'whole' }],
    ['bytes=-', 1000, { kind: 'whole' }],
  ])('%j of %d bytes → %j', (header, size, answer) => {
    expect(byteRange(header, size)).toEqual(answer);
  });
});
