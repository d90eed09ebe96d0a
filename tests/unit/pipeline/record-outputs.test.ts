import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  RecordFilesError,
  UnrenderedRecordsError,
  writeRecordOutputs,
  type CheckedFiles,
  type PlannedRecord,
} from '../../../src/lib/pipeline/record-outputs.ts';
import { namedRecord } from '../../../src/lib/record/index.ts';
import { siteEntryOf } from '../../../src/lib/site/site-index.ts';
import { projectRoot, sampleRecords } from '../../support/records.ts';

const place = { site: 'https://garments.example/', stylesheet: '/styles/site.test.css' };
const samples = sampleRecords();
let work: string;
let records: string;

/** The record files of `records`, each planned as its name says, with its size and time now. */
function planned(): PlannedRecord[] {
  return readdirSync(records)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = path.join(records, name);
      const { size, mtimeMs } = statSync(file);
      return { file, size, mtimeMs, ...namedRecord(file)! };
    });
}

/** The garments a site folder holds pages for. */
function garmentsIn(siteDir: string): string[] {
  return existsSync(path.join(siteDir, 'garments')) ? readdirSync(path.join(siteDir, 'garments')).sort() : [];
}

beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), 'record-outputs-'));
  records = path.join(work, 'records');
  cpSync(path.join(projectRoot, 'records'), records, { recursive: true });
});

describe('writeRecordOutputs, with records not checked yet', () => {
  it('checks each record in the thread that renders it, says so once every file is checked, and writes every garment and the index', async () => {
    const siteDir = path.join(work, 'site');
    const told: CheckedFiles[] = [];
    const summary = await writeRecordOutputs({ ...place, siteDir, unchecked: planned(), onChecked: (checks) => told.push(checks) });
    expect(told).toHaveLength(1);
    expect(told[0]!.renderable).toBe(true);
    expect(told[0]!.files.map((check) => check.file).sort()).toEqual(planned().map((p) => p.file));
    for (const check of told[0]!.files) {
      expect(check.problems).toEqual([]);
      const { record } = samples.find((s) => path.basename(s.file) === path.basename(check.file))!;
      expect(check.record?.summary).toEqual(siteEntryOf(record, check.file));
    }
    expect(summary.checks?.files).toHaveLength(samples.length);
    expect(summary.pages.records).toBe(samples.length);
    expect(summary.search.pages).toBe(samples.length);
    expect(garmentsIn(siteDir)).toEqual([...new Set(samples.map((s) => s.record.slug))].sort());
  });

  it('checks every file to the end when one is invalid, renders no garment of it, and fails with every check', async () => {
    const [bad] = planned();
    writeFileSync(bad!.file, '{');
    const siteDir = path.join(work, 'site');
    const failed = await writeRecordOutputs({ ...place, siteDir, unchecked: planned() }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(UnrenderedRecordsError);
    const { checks } = failed as UnrenderedRecordsError;
    expect(checks.renderable).toBe(false);
    expect(checks.files).toHaveLength(samples.length);
    expect(checks.files.find((check) => check.file === bad!.file)!.problems).toEqual([
      {
        severity: 'error',
        file: bad!.file,
        pointer: '',
        message: 'invalid JSON at line 1, column 2: expected a double-quoted property name, got end of file',
      },
    ]);
    expect(garmentsIn(siteDir)).not.toContain(bad!.slug);
  });

  it('does not render a valid record that is not the one its file is named after, so the build can render again from the checks', async () => {
    const [first, second] = planned();
    // The first file now holds the second's record: valid, but not the record its name says.
    writeFileSync(first!.file, readFileSync(second!.file));
    const siteDir = path.join(work, 'site');
    const failed = await writeRecordOutputs({ ...place, siteDir, unchecked: planned() }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(UnrenderedRecordsError);
    expect(garmentsIn(siteDir)).not.toContain(first!.slug);
    const check = (failed as UnrenderedRecordsError).checks.files.find((c) => c.file === first!.file)!;
    expect(check.problems).toEqual([]);
    expect(check.record).toMatchObject({ slug: second!.slug, projection: second!.projection });
  });
});

describe('writeRecordOutputs, with records checked already', () => {
  it('refuses to render a record whose file was not checked', async () => {
    const [first] = samples;
    const entry = siteEntryOf(first!.record, path.join(records, path.basename(first!.file)));
    const failed = await writeRecordOutputs({
      ...place,
      siteDir: path.join(work, 'site'),
      entries: [entry],
      checkedFiles: new Map(),
      renderedSlugs: null,
    }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RecordFilesError);
    expect((failed as Error).message).toBe(`pages: ${entry.file} is to be rendered, but was not checked`);
  });

  it('stops its threads when aborted, and writes nothing after', async () => {
    const stop = new AbortController();
    const siteDir = path.join(work, 'site');
    const entries = samples.map(({ file, record }) => siteEntryOf(record, path.join(records, path.basename(file))));
    const checkedFiles = new Map(entries.map(({ file }) => [file, { file, size: statSync(file).size, mtimeMs: statSync(file).mtimeMs }]));
    const writing = writeRecordOutputs({ ...place, siteDir, entries, checkedFiles, renderedSlugs: null }, () => {}, stop.signal).catch(
      (error: unknown) => error,
    );
    stop.abort();
    expect(await writing).toBeInstanceOf(RecordFilesError);
    const written = garmentsIn(siteDir);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(garmentsIn(siteDir)).toEqual(written);
  });
});
