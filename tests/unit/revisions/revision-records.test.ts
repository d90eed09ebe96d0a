import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { recordFromBytes, type GarmentRecord } from '../../../src/lib/record/index.ts';
import { keptRevisionRecord, latestRevisionRecord } from '../../../src/lib/revisions/revision-records.ts';

const bytes = (text: string) => Buffer.from(text);
const pretty = (value: unknown) => bytes(`${JSON.stringify(value, null, 2)}\n`);
/** The record published now, as the record threads have it: its bytes and the record read from them. */
const latest = (text: Buffer) => latestRevisionRecord(text, recordFromBytes(text));
/** What keptRevisionRecord reads, in the order JSON.parse gives its members. */
const asRead = (text: Buffer, next: Buffer) => JSON.stringify(keptRevisionRecord(text, latest(next)).record);

/** The error `read` throws, if it throws. */
function errorOf(read: () => unknown): Error | undefined {
  try {
    read();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe('keptRevisionRecord', () => {
  const tee = JSON.parse(readFileSync('records/ridgeline-rk6210-heavyweight-tee.svc.json', 'utf8')) as GarmentRecord;
  const earlier = { ...tee, record_revision: 'earlier', page: { ...tee.page, title: 'An earlier title' } };

  it('reads a revision as recordFromBytes does, sharing the parts written as in the revision after it', () => {
    const after = latest(pretty(tee));
    const shared = keptRevisionRecord(pretty(earlier), after).record;
    expect(JSON.stringify(shared)).toBe(JSON.stringify(recordFromBytes(pretty(earlier))));
    expect(shared.claims).toBe(after.record.claims);
    expect(shared.data).toBe(after.record.data);
    expect(shared.page).not.toBe(after.record.page);
    expect(shared.page.title).toBe('An earlier title');
  });

  it('reads whole a text whose lines of two spaces are not its members', () => {
    // Lines indented as members inside a nested object: "a" must not be taken for the next revision's.
    const next = bytes('{"a": {\n  "b": 1,\n  "c": 2}, "b": 5, "c": 6}');
    const kept = bytes('{"a": {\n  "b": 9,\n  "c": 2}, "b": 5, "c": 6}');
    expect(asRead(kept, next)).toBe('{"a":{"b":9,"c":2},"b":5,"c":6}');
    const nested = bytes('{\n  "a": {\n  "b": 9,\n  "c": 2},\n  "b": 5\n}');
    expect(asRead(nested, bytes('{\n  "a": {\n  "b": 1,\n  "c": 2},\n  "b": 5\n}'))).toBe('{"a":{"b":9,"c":2},"b":5}');
    const split = bytes('{\n  "a": {"x": 1,\n  "b": 2},\n  "c": 3\n}');
    expect(asRead(split, bytes('{\n  "a": {"x": 1,\n  "b": 3},\n  "c": 3\n}'))).toBe('{"a":{"x":1,"b":2},"c":3}');
    expect(asRead(bytes('{\n  "a": 1,\n  "a": 2\n}'), bytes('{\n  "a": 1\n}'))).toBe('{"a":2}');
    expect(asRead(bytes('\uFEFF{\n  "a": [1],\n  "b": 2\n}\n'), bytes('{\n  "a": [1],\n  "b": 3\n}'))).toBe('{"a":[1],"b":2}');
  });

  it('fails as recordFromBytes does for a text that is not JSON', () => {
    const next = pretty({ a: 1, b: 'x' });
    for (const text of ['{\n  "a": 1,\n  "b": "x\n  "c": 2\n}', '{\n  "a": 1,\n  "b": "x",\n}', '{\n  "a": 1,\n  "b": "\xff"\n}']) {
      const broken = text.includes('\xff')
        ? Buffer.concat([bytes(text.slice(0, text.indexOf('\xff'))), Buffer.from([0xff]), bytes('"\n}')])
        : bytes(text);
      const failure = errorOf(() => recordFromBytes(broken));
      expect(failure).toBeInstanceOf(Error);
      expect(() => keptRevisionRecord(broken, latest(next))).toThrow(failure!.message);
    }
  });
});
