import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  checkRecords,
  listRecordFiles,
  MissingPathError,
  recordCheckOf,
  statRecordFiles,
  type FileCheck,
} from '../../../src/lib/record/index.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

const samples = sampleRecords();
let dir: string;

/** Writes a record (or any text) into the test's folder; returns its path. */
function put(name: string, content: unknown): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'load-'));
});

describe('listRecordFiles', () => {
  it('lists the .json files under a folder and its folders, sorted, and nothing else', async () => {
    put('b.svc.json', '{}');
    put('a/c.tech.json', '{}');
    put('notes.md', '# not a record');
    put('a/d.json.bak', '{}');
    expect(await listRecordFiles([dir])).toEqual([path.join(dir, 'a/c.tech.json'), path.join(dir, 'b.svc.json')]);
  });

  it('takes a file given by name whatever its name, and lists a file given twice once', async () => {
    const file = put('record.txt', '{}');
    expect(await listRecordFiles([file, file])).toEqual([file]);
  });

  it('counts a link to a file as the file and a link to nothing as a file (so reading it fails, naming it), but follows no link to a folder', async () => {
    const target = put('elsewhere/real.svc.json', '{}');
    const records = path.join(dir, 'records');
    mkdirSync(records);
    symlinkSync(target, path.join(records, 'linked.svc.json'));
    symlinkSync(path.join(dir, 'gone.svc.json'), path.join(records, 'dangling.svc.json'));
    symlinkSync(path.join(dir, 'elsewhere'), path.join(records, 'folder.json'));
    expect(await listRecordFiles([records])).toEqual([path.join(records, 'dangling.svc.json'), path.join(records, 'linked.svc.json')]);
  });

  it('follows no link to a pipe or a device, which reading would wait on or never finish', async () => {
    const records = path.join(dir, 'records');
    mkdirSync(records);
    execFileSync('mkfifo', [path.join(dir, 'pipe')]);
    symlinkSync(path.join(dir, 'pipe'), path.join(records, 'pipe.svc.json'));
    symlinkSync('/dev/zero', path.join(records, 'zero.svc.json'));
    const linked = put('real.svc.json', '{}');
    symlinkSync(linked, path.join(records, 'linked.svc.json'));
    expect(await listRecordFiles([records])).toEqual([path.join(records, 'linked.svc.json')]);
  });

  it('refuses a path that is no file or folder, naming it', async () => {
    await expect(listRecordFiles([path.join(dir, 'nowhere')])).rejects.toThrow(
      new MissingPathError(`${path.join(dir, 'nowhere')}: no such file or folder`),
    );
    await expect(listRecordFiles(['/dev/null'])).rejects.toThrow(new MissingPathError('/dev/null: not a file or folder'));
  });
});

describe('statRecordFiles', () => {
  it('gives each listed file with its size and modification time', async () => {
    const file = put('tee.svc.json', '{"a": 1}');
    expect(await statRecordFiles([dir])).toEqual([{ file, size: 8, mtimeMs: statSync(file).mtimeMs }]);
  });
});

describe('checkRecords', () => {
  it('checks every file, keeps what summarize chooses of each valid record, and lists every problem in file order', async () => {
    const [first, second] = samples;
    put('b.json', first!.record);
    put('a.json', '{');
    const broken = copyOf(second!.record);
    (broken as { slug: unknown }).slug = 'Bad Slug';
    put('c.json', broken);
    const check = await checkRecords([dir], { summarize: ({ record }) => record.slug });
    expect(check.files).toEqual(['a.json', 'b.json', 'c.json'].map((name) => path.join(dir, name)));
    expect(check.records).toEqual([
      { file: path.join(dir, 'b.json'), slug: first!.record.slug, projection: first!.record.projection, summary: first!.record.slug },
    ]);
    expect(check.problems.map((p) => [path.basename(p.file), p.pointer])).toEqual([
      ['a.json', ''],
      ['c.json', '/slug'],
    ]);
    expect(check.checked).toBe(3);
    expect(check.checks.map((c) => path.basename(c.file))).toEqual(['a.json', 'b.json', 'c.json']);
  });

  it('reuses the check of a file that still has the size and time it had, without reading it', async () => {
    const file = put('tee.svc.json', samples[0]!.record);
    const first = await checkRecords([dir]);
    // Same size and time, other bytes: a reused check does not see them.
    const { size, mtimeMs } = statSync(file);
    const stored = new Map(first.checks.map((c) => [c.file, c]));
    const reused = await checkRecords([dir], { reuse: (name, s, t) => (s === size && t === mtimeMs ? stored.get(name) : undefined) });
    expect(reused.checked).toBe(0);
    expect(reused.records).toEqual(first.records);
  });

  it('refuses two files publishing the same slug and projection, naming both, and keeps neither record', async () => {
    put('one.json', samples[0]!.record);
    put('two.json', samples[0]!.record);
    put('other.json', samples[1]!.record);
    const check = await checkRecords([dir]);
    expect(check.records.map((r) => path.basename(r.file))).toEqual(['other.json']);
    expect(check.problems.map((p) => `${path.basename(p.file)} ${p.pointer} ${p.message.replaceAll(dir + path.sep, '')}`)).toEqual([
      `one.json /slug slug and projection "${samples[0]!.record.slug}/${samples[0]!.record.projection}" are also published by two.json; each (slug, projection) needs one file: rename a slug or remove a duplicate`,
      `two.json /slug slug and projection "${samples[0]!.record.slug}/${samples[0]!.record.projection}" are also published by one.json; each (slug, projection) needs one file: rename a slug or remove a duplicate`,
    ]);
  });
});

describe('recordCheckOf', () => {
  it('orders checks by file whatever order they came in, keeping each file’s own problems in order', () => {
    const check = (file: string, messages: string[]): FileCheck<undefined> => ({
      file,
      size: 1,
      mtimeMs: 1,
      problems: messages.map((message) => ({ severity: 'error', file, pointer: '', message })),
    });
    const result = recordCheckOf([check('b.json', ['b1', 'b2']), check('a.json', ['a1'])], 2);
    expect(result.files).toEqual(['a.json', 'b.json']);
    expect(result.problems.map((p) => p.message)).toEqual(['a1', 'b1', 'b2']);
    expect(result.checked).toBe(2);
    expect(result.records).toEqual([]);
  });
});
