import { describe, expect, it } from 'vitest';
import { checkFileBytes, checkRecordBytes, fileCheckOf, MARKDOWN_MAX_LENGTH, recordFromBytes } from '../../../src/lib/record/index.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

const samples = sampleRecords();
const sample = () => copyOf(samples[0]!.record);
const bytesOf = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2));
const stat = { file: 'records/tee.svc.json', size: 1234, mtimeMs: 1_700_000_000_000 };

describe('checkRecordBytes', () => {
  it.each(samples.map((s) => [s.file, s.record] as const))('finds the sample record %s valid and returns it as read', (file, record) => {
    expect(checkRecordBytes(file, bytesOf(record))).toEqual({ record, problems: [] });
  });

  it('says where bytes stop being UTF-8 text, and reads no further', () => {
    expect(checkRecordBytes('r.json', Buffer.from('{\n  "slug": "caf\xe9"\n}', 'latin1'))).toEqual({
      problems: [
        {
          severity: 'error',
          file: 'r.json',
          pointer: '',
          message: 'not UTF-8 text at line 2, column 15: byte 0xE9 is not part of a UTF-8 character',
        },
      ],
    });
  });

  it('says where text stops being JSON', () => {
    expect(checkRecordBytes('r.json', Buffer.from('{"slug": }'))).toEqual({
      problems: [
        { severity: 'error', file: 'r.json', pointer: '', message: 'invalid JSON at line 1, column 10: expected a JSON value, got "}"' },
      ],
    });
  });

  it('refuses a property name given twice, which parsers would read differently', () => {
    const text = bytesOf(sample()).toString().replace('{', '{\n  "slug": "twice",');
    const { record, problems } = checkRecordBytes('r.json', Buffer.from(text));
    expect(record).toBeUndefined();
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(/^invalid JSON at line \d+, column \d+: .*"slug"/);
  });

  it('reports every schema problem, and checks references only in a record that passed the schema', () => {
    const record = sample();
    (record as { slug: unknown }).slug = 'Not A Slug';
    record.page.sections.overview[0]!.claim_ids.push('claim-nowhere');
    const { record: valid, problems } = checkRecordBytes('r.json', bytesOf(record));
    expect(valid).toBeUndefined();
    expect(problems.map((p) => p.pointer)).toEqual(['/slug']);
  });

  it('refuses a record naming a claim it does not hold', () => {
    const record = sample();
    record.page.sections.overview[0]!.claim_ids.push('claim-nowhere');
    const { record: valid, problems } = checkRecordBytes('r.json', bytesOf(record));
    expect(valid).toBeUndefined();
    expect(problems).toEqual([
      expect.objectContaining({ severity: 'error', pointer: expect.stringMatching(/^\/page\/sections\/overview\/0\/claim_ids\/\d+$/) }),
    ]);
  });

  it('returns a record that has only warnings, with the warnings', () => {
    const record = sample();
    record.page.sections.overview[0]!.text = 'a'.repeat(MARKDOWN_MAX_LENGTH + 1);
    const { record: valid, problems } = checkRecordBytes('r.json', bytesOf(record));
    expect(valid).toEqual(record);
    expect(problems).toEqual([expect.objectContaining({ severity: 'warning', pointer: '/page/sections/overview/0/text' })]);
  });
});

describe('checkFileBytes', () => {
  it('makes a valid record a file check keeping its slug, projection and summary, and hands the record back', () => {
    const record = sample();
    const { check, record: read } = checkFileBytes(stat, bytesOf(record), ({ file, record }) => `${file} ${record.slug}`);
    expect(read).toEqual(record);
    expect(check).toEqual({
      ...stat,
      problems: [],
      record: { file: stat.file, slug: record.slug, projection: record.projection, summary: `${stat.file} ${record.slug}` },
    });
  });

  it('makes an invalid record a file check with its problems and no record, never summarizing it', () => {
    const { check, record } = checkFileBytes(stat, Buffer.from('{'), () => {
      throw new Error('summarized an invalid record');
    });
    expect(record).toBeUndefined();
    expect(check).toEqual({
      ...stat,
      problems: [expect.objectContaining({ file: stat.file, message: expect.stringMatching(/^invalid JSON at line 1, column 2/) })],
    });
  });
});

describe('fileCheckOf', () => {
  it('names the file in the kept record, so a check can be moved and restored whole', () => {
    expect(fileCheckOf(stat, [], { slug: 'tee', projection: 'svc', summary: 1 })).toEqual({
      ...stat,
      problems: [],
      record: { file: stat.file, slug: 'tee', projection: 'svc', summary: 1 },
    });
    expect(fileCheckOf(stat, [])).toEqual({ ...stat, problems: [] });
  });
});

describe('recordFromBytes', () => {
  it('reads bytes already checked, without checking them again', () => {
    const record = sample();
    expect(recordFromBytes(bytesOf(record))).toEqual(record);
  });

  it('fails, saying where, on bytes that are not UTF-8, rather than reading a character as U+FFFD', () => {
    expect(() => recordFromBytes(Buffer.from('"caf\xe9"', 'latin1'))).toThrow(
      'not UTF-8 text at line 1, column 5: byte 0xE9 is not part of a UTF-8 character',
    );
  });
});
