import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { copyOf, sampleRecords } from '../support/records.ts';
import { runCli } from '../support/run.ts';

const samples = sampleRecords();
const commerce = () => copyOf(samples.find((s) => s.record.projection === 'svc')!.record);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'validate-cli-'));
  mkdirSync(path.join(dir, 'records'));
});

function write(name: string, content: unknown): void {
  writeFileSync(path.join(dir, 'records', name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

const validate = (...args: string[]) => runCli('validate.ts', args, { cwd: dir });

describe('npm run validate', () => {
  it('accepts the sample records with exit 0 and a summary line', () => {
    const result = runCli('validate.ts', []);
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n').at(-1)).toBe(`${samples.length} files, ${samples.length} valid records, 0 errors, 0 warnings`);
  });

  it('reports invalid JSON with its line and column, and exits 1', () => {
    write('broken.svc.json', '{\n  "slug": "tee",\n  "projection": svc\n}');
    const result = validate();
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('records/broken.svc.json: (record): invalid JSON at line 3, column 17: expected a JSON value, got "s"');
    expect(result.stdout).toContain('1 file, 0 valid records, 1 error, 0 warnings');
  });

  it('refuses a record that repeats a property name, which the published JSON would carry to other parsers', () => {
    // The first "slug" would be what a parser keeping the first of repeated names reads.
    const text = JSON.stringify(commerce(), null, 2).replace('{\n', '{\n  "slug": "<script>",\n');
    write('repeated.svc.json', text);
    const result = validate();
    expect(result.status).toBe(1);
    const line = text.split('\n').findIndex((row, i) => i > 1 && row.startsWith('  "slug"')) + 1;
    expect(result.stdout).toContain(
      `records/repeated.svc.json: (record): invalid JSON at line ${line}, column 3: property name "slug" repeats the one at line 2, column 3 in the top-level object`,
    );
  });

  it('refuses a record that is not UTF-8 text, saying where, rather than changing its characters', () => {
    const text = JSON.stringify(commerce(), null, 2).replace(/"official_name": "/, '"official_name": "Caf\u00e9 ');
    writeFileSync(path.join(dir, 'records', 'latin1.svc.json'), Buffer.from(text, 'latin1'));
    const line = text.split('\n').findIndex((row) => row.includes('Caf\u00e9')) + 1;
    const column = text.split('\n')[line - 1]!.indexOf('\u00e9') + 1;
    const result = validate();
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      `records/latin1.svc.json: (record): not UTF-8 text at line ${line}, column ${column}: byte 0xE9 is not part of a UTF-8 character`,
    );
  });

  it('names an unknown property and the allowed ones', () => {
    const record = commerce();
    (record.data.colors[0] as unknown as Record<string, unknown>).colour = 'black';
    write('tee.svc.json', record);
    const result = validate();
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      /^records\/tee\.svc\.json: \/data\/colors\/0\/colour: unknown property "colour"; allowed: id, manufacturer_name, manufacturer_code, /m,
    );
  });

  it('lists the allowed values of an enumeration', () => {
    const record = commerce();
    (record.research as unknown as Record<string, unknown>).status = 'finished';
    write('tee.svc.json', record);
    expect(validate().stdout).toContain(
      'records/tee.svc.json: /research/status: expected one of "in_progress", "complete_with_gaps", "complete", "identity_unresolved", "incomplete"; got "finished"',
    );
  });

  it('reports a text block citing a claim that does not exist', () => {
    const record = commerce();
    record.page.sections.overview[0]!.claim_ids = ['claim-missing'];
    write('tee.svc.json', record);
    const result = validate();
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'records/tee.svc.json: /page/sections/overview/0/claim_ids/0: names claim "claim-missing", which is not in claims',
    );
  });

  it('reports two files publishing the same slug and projection, naming both', () => {
    write('a.svc.json', commerce());
    write('b.svc.json', commerce());
    const result = validate();
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/records\/a\.svc\.json: \/slug: .*also published by records\/b\.svc\.json/);
    expect(result.stdout).toMatch(/records\/b\.svc\.json: \/slug: .*also published by records\/a\.svc\.json/);
  });

  it('reports every problem of every file, not just the first', () => {
    const first = commerce();
    (first as Record<string, unknown>).extra = 1;
    first.research.status = 'done' as never;
    write('a.svc.json', first);
    write('b.svc.json', '[]');
    const result = validate();
    expect(result.stdout).toContain('records/a.svc.json: /extra: unknown property "extra"');
    expect(result.stdout).toContain('records/a.svc.json: /research/status: expected one of');
    expect(result.stdout).toContain('records/b.svc.json: (record): not a record: expected a JSON object, got an array of 0');
    expect(result.stdout).toContain('2 files, 0 valid records, 3 errors, 0 warnings');
  });

  it('exits 0 when only warnings are found, and counts them', () => {
    const record = commerce();
    record.data.variants[0]!.color_id = 'color-elsewhere';
    write('tee.svc.json', record);
    const result = validate();
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('records/tee.svc.json: /data/variants/0/color_id: warning: names "color-elsewhere"');
    expect(result.stdout).toContain('1 file, 1 valid record, 0 errors, 1 warning');
  });

  it('validates only the files and folders given', () => {
    write('a.svc.json', commerce());
    write('bad.json', '{');
    const result = validate('records/a.svc.json');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('1 file, 1 valid record');
  });

  it('reads a link to a record file as the file, and does not follow links to folders', () => {
    mkdirSync(path.join(dir, 'elsewhere', 'more'), { recursive: true });
    writeFileSync(path.join(dir, 'elsewhere', 'linked.svc.json'), JSON.stringify(commerce()));
    writeFileSync(path.join(dir, 'elsewhere', 'more', 'hidden.svc.json'), '{');
    symlinkSync(path.join(dir, 'elsewhere', 'linked.svc.json'), path.join(dir, 'records', 'linked.svc.json'));
    symlinkSync(path.join(dir, 'elsewhere', 'more'), path.join(dir, 'records', 'more'));
    symlinkSync(path.join(dir, 'records'), path.join(dir, 'records', 'loop'));
    const result = validate();
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('1 file, 1 valid record, 0 errors, 0 warnings');
  });

  it('fails naming a link to a record file that is gone as that file’s problem, with every other file’s, rather than leaving its record out without a word', () => {
    write('kept.svc.json', JSON.stringify(commerce()));
    write('bad.svc.json', '{}');
    const target = path.join(dir, 'nowhere', 'gone.svc.json');
    symlinkSync(target, path.join(dir, 'records', 'gone.svc.json'));
    const result = validate();
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('records/bad.svc.json: /schema_version: not a garment-access/2.4.0 record');
    expect(result.stdout).toContain(`records/gone.svc.json: (record): cannot be read: it is a link to ${target}, which does not exist`);
    expect(result.stdout).toContain('3 files, 1 valid record');
  });

  it('prints a machine-readable report with --json', () => {
    write('bad.svc.json', '{}');
    const result = validate('--json');
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ valid: false, files: 1, records: 0, errors: 1, warnings: 0 });
    expect(report.problems[0]).toMatchObject({ severity: 'error', file: 'records/bad.svc.json', pointer: '/schema_version' });
  });

  it('exits 2 on an unknown option or a path that does not exist', () => {
    expect(validate('--strictest').status).toBe(2);
    const missing = validate('records/nope.json');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('records/nope.json: no such file or folder');
    const device = validate('--json', '/dev/null');
    expect(device.status).toBe(2);
    expect(device.stderr).toContain('/dev/null: not a file or folder');
  });

  it('exits 1 when the folder holds no record file, so a mistyped one is not taken for a valid site', () => {
    const result = validate();
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('validate: no record files (*.json) in records\n');
    const report = validate('--json');
    expect(report.status).toBe(1);
    expect(JSON.parse(report.stdout)).toMatchObject({ valid: false, files: 0 });
  });
});
