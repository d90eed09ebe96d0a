// What `npm run validate` and `npm run build` say when something is wrong, pinned word for word:
// the wording is part of the contract (file, JSON pointer, what was expected, what to do).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MARKDOWN_MAX_LENGTH } from '../../src/lib/record/index.ts';
import { copyOf, sampleRecords } from '../support/records.ts';
import { runCli } from '../support/run.ts';

const samples = sampleRecords();
let dir: string;

/** Writes a records folder under the test's folder: each file's record (or text) by name. */
function recordsFolder(name: string, files: Record<string, unknown>): string {
  mkdirSync(path.join(dir, name));
  for (const [file, content] of Object.entries(files)) {
    writeFileSync(
      path.join(dir, name, file),
      content instanceof Uint8Array || typeof content === 'string' ? content : JSON.stringify(content, null, 2),
    );
  }
  return name;
}

/** Runs a CLI in the test's folder; what it printed, with that folder's path shown as `<dir>`. */
function run(script: string, args: string[]) {
  const result = runCli(script, args, { cwd: dir });
  const shown = (text: string) => text.replaceAll(dir, '<dir>');
  return { status: result.status, stdout: shown(result.stdout), stderr: shown(result.stderr) };
}

/** A folder holding one of each kind of problem, and a record with a warning only. */
function everyKindOfProblem(name: string): string {
  const [tee, other] = [copyOf(samples[0]!.record), copyOf(samples[1]!.record)];
  const schema = copyOf(tee);
  (schema as { slug: unknown }).slug = 'Not A Slug';
  (schema as unknown as { extra: boolean }).extra = true;
  const dangling = copyOf(tee);
  dangling.slug = 'dangling';
  dangling.page.sections.overview[0]!.claim_ids = ['claim-nowhere'];
  const warned = copyOf(other);
  warned.slug = 'warned';
  warned.page.sections.overview[0]!.text = 'a'.repeat(MARKDOWN_MAX_LENGTH + 1);
  return recordsFolder(name, {
    'broken.svc.json': '{\n  "slug": "tee",\n  "projection": svc\n}',
    'latin1.svc.json': Buffer.from('{\n  "slug": "caf\xe9"\n}', 'latin1'),
    'schema.svc.json': schema,
    'dangling.svc.json': dangling,
    'first.svc.json': tee,
    'second.svc.json': tee,
    'warned.tech.json': warned,
  });
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cli-messages-'));
});

describe('npm run validate says', () => {
  it('every problem of every file, one a line, then the counts', () => {
    const result = run('validate.ts', [everyKindOfProblem('invalid')]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatchInlineSnapshot(`
      "invalid/broken.svc.json: (record): invalid JSON at line 3, column 17: expected a JSON value, got "s"
      invalid/dangling.svc.json: /page/sections/overview/0/claim_ids/0: names claim "claim-nowhere", which is not in claims
      invalid/first.svc.json: /slug: slug and projection "fieldline-fl300-twill-work-jacket/svc" are also published by invalid/second.svc.json; each (slug, projection) needs one file: rename a slug or remove a duplicate
      invalid/latin1.svc.json: (record): not UTF-8 text at line 2, column 15: byte 0xE9 is not part of a UTF-8 character
      invalid/schema.svc.json: /extra: unknown property "extra"; allowed: schema_version, record_id, slug, record_revision, projection, service_status, published_at, research, data, sources, claims, conflicts, decisions, gaps, page, selection_summary, images, catalog, links, claim_target_base
      invalid/schema.svc.json: /slug: must match ^[a-z0-9]+(?:-[a-z0-9]+)*$; got "Not A Slug"
      invalid/second.svc.json: /slug: slug and projection "fieldline-fl300-twill-work-jacket/svc" are also published by invalid/first.svc.json; each (slug, projection) needs one file: rename a slug or remove a duplicate
      invalid/warned.tech.json: /page/sections/overview/0/text: warning: is 4001 characters long, so it is shown as plain text: Markdown is read in text blocks of at most 4000
      7 files, 1 valid record, 7 errors, 1 warning
      "
    `);
  });

  it('that a folder holds no record file', () => {
    const result = run('validate.ts', [recordsFolder('empty', {})]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatchInlineSnapshot(`
      "validate: no record files (*.json) in empty
      "
    `);
  });

  it('that a path given is no file or folder, with the usage', () => {
    const result = run('validate.ts', ['nowhere']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatchInlineSnapshot(`
      "validate: nowhere: no such file or folder

      usage: npm run validate [-- [--json] [path...]]

      Validates garment-access/2.4.0 records: every .json file under the given files
      and folders (default: records/). Exit 0 when valid (warnings allowed), 1 when
      any record is invalid, 2 on bad usage.

        --json   print a machine-readable report instead of text
      "
    `);
  });
});

describe('npm run build says', () => {
  it('every problem of every file, and that the output was left as it was', () => {
    const result = run('build.ts', ['--records', everyKindOfProblem('invalid-build'), '--out', 'site']);
    expect(result.status).toBe(1);
    expect(
      result.stdout
        .split('\n')
        .filter((line) => line.startsWith('invalid-build/'))
        .join('\n'),
    ).toMatchInlineSnapshot(`
      "invalid-build/broken.svc.json: (record): invalid JSON at line 3, column 17: expected a JSON value, got "s"
      invalid-build/dangling.svc.json: /page/sections/overview/0/claim_ids/0: names claim "claim-nowhere", which is not in claims
      invalid-build/first.svc.json: /slug: slug and projection "fieldline-fl300-twill-work-jacket/svc" are also published by invalid-build/second.svc.json; each (slug, projection) needs one file: rename a slug or remove a duplicate
      invalid-build/latin1.svc.json: (record): not UTF-8 text at line 2, column 15: byte 0xE9 is not part of a UTF-8 character
      invalid-build/schema.svc.json: /extra: unknown property "extra"; allowed: schema_version, record_id, slug, record_revision, projection, service_status, published_at, research, data, sources, claims, conflicts, decisions, gaps, page, selection_summary, images, catalog, links, claim_target_base
      invalid-build/schema.svc.json: /slug: must match ^[a-z0-9]+(?:-[a-z0-9]+)*$; got "Not A Slug"
      invalid-build/second.svc.json: /slug: slug and projection "fieldline-fl300-twill-work-jacket/svc" are also published by invalid-build/first.svc.json; each (slug, projection) needs one file: rename a slug or remove a duplicate
      invalid-build/warned.tech.json: /page/sections/overview/0/text: warning: is 4001 characters long, so it is shown as plain text: Markdown is read in text blocks of at most 4000"
    `);
    expect(result.stderr).toMatchInlineSnapshot(`
      "build stopped: 7 error(s) in the records; site/ was left unchanged
      "
    `);
  });

  it('that a records folder holds no record file', () => {
    const result = run('build.ts', ['--records', recordsFolder('no-records', {}), '--out', 'site']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatchInlineSnapshot(`
      "NoRecordsError: no-records: no record files (*.json) in it or its folders; a site needs at least one record
      build failed; site/ was left unchanged
      "
    `);
  });

  it('that a records folder does not exist', () => {
    const result = run('build.ts', ['--records', 'nowhere', '--out', 'site']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatchInlineSnapshot(`
      "build: --records nowhere: no such file or folder
      "
    `);
  });

  it('that an output folder would replace the records', () => {
    const records = recordsFolder('held', { 'tee.svc.json': samples[0]!.record });
    const result = run('build.ts', ['--records', records, '--out', '.']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatchInlineSnapshot(`
      "OutputFolderError: the output folder <dir> holds the records (<dir>/held), and a build replaces its output folder: choose another
      build failed; ./ was left unchanged
      "
    `);
  });

  it('what is wrong with a site address or a shard size', () => {
    const said = (args: string[]) => {
      const result = run('build.ts', args);
      expect(result.status).toBe(2);
      return result.stderr;
    };
    expect(said(['--site', 'garments.example'])).toMatchInlineSnapshot(`
      "build: --site expects an absolute http(s) URL, got "garments.example"
      "
    `);
    expect(said(['--site', 'https://example.org/garments/'])).toMatchInlineSnapshot(`
      "build: --site expects the address of a site's root, such as https://example.org/, got "https://example.org/garments/": pages link from /, so the site must be served from the root of its host
      "
    `);
    expect(said(['--search-shard-pages', '0'])).toMatchInlineSnapshot(`
      "build: --search-shard-pages must be a whole number of at least 1, got 0
      "
    `);
  });
});
