// A rebuild after one record changed carries over, keeps and renders only part of the site: what it
// publishes must be the site a fresh build of the same records makes, file for file (issue 33).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticRecords } from '../../src/lib/bench/bench.ts';
import { projectRoot } from '../support/records.ts';
import { runCli } from '../support/run.ts';

let work: string;
let records: string;

/** Builds `records` into `out`; the build's report. */
function build(out: string, ...extra: string[]): { records: number; rendered: number } {
  const report = path.join(work, `${path.basename(out)}.json`);
  // Shards of 100 pages: the rebuild keeps most shards of the index and builds one again.
  const args = ['--records', records, '--out', out, '--search-shard-pages', '100', '--report', report, ...extra];
  const result = runCli('build.ts', args);
  expect(result.status, result.stdout + result.stderr).toBe(0);
  return JSON.parse(readFileSync(report, 'utf8'));
}

/** Every file of a site by its path, the build's own state (`.garment-press/`) left out. */
function siteFiles(site: string): Map<string, Buffer> {
  const files = readdirSync(site, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(site, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith(`.garment-press${path.sep}`));
  return new Map(files.sort().map((file) => [file, readFileSync(path.join(site, file))]));
}

/** The category pages of a site (`categories/<category>/…/index.html`), each with its file's inode. */
function categoryPages(site: string): Map<string, number> {
  const files = readdirSync(path.join(site, 'categories'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.html'));
  return new Map(files.map((file) => [file, statSync(path.join(site, 'categories', file)).ino]));
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'incremental-equals-full-'));
  records = path.join(work, 'records');
  // 310 garments: category pages, more than one page in the largest category, and four shards.
  await writeSyntheticRecords(path.join(projectRoot, 'records'), records, 620);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a rebuild after one record changed', () => {
  it('publishes the same site, file for file, as a fresh build of the same records', () => {
    const rebuilt = path.join(work, 'rebuilt');
    expect(build(rebuilt).rendered).toBe(620);
    const pagesBefore = categoryPages(rebuilt);
    const name = readdirSync(records).filter((file) => file.endsWith('.svc.json'))[100]!;
    const record = JSON.parse(readFileSync(path.join(records, name), 'utf8'));
    // A new title moves the garment in its category's listings, on the home page and in the search.
    record.page.title.text = `Aaa ${record.page.title.text}`;
    record.page.sections.overview.push({ text: 'Now sold in a recycled mailer.', claim_ids: [], kind: 'fact' });
    writeFileSync(path.join(records, name), JSON.stringify(record, null, 2));
    expect(build(rebuilt).rendered).toBeLessThanOrEqual(2);
    // Only the category pages that list the garment are written again; the others are the last build's files.
    const pagesAfter = categoryPages(rebuilt);
    const listing = (file: string) => readFileSync(path.join(rebuilt, 'categories', file), 'utf8').includes(record.page.title.text);
    const rewritten = [...pagesAfter.keys()].filter((file) => pagesAfter.get(file) !== pagesBefore.get(file));
    const category = [...pagesAfter.keys()].find(listing)!.split(path.sep)[0];
    expect([...pagesAfter.keys()].filter(listing).filter((file) => !rewritten.includes(file))).toEqual([]);
    expect(rewritten.filter((file) => file.split(path.sep)[0] !== category)).toEqual([]);
    expect(rewritten.length).toBeLessThan(pagesAfter.size / 2);

    const fresh = path.join(work, 'fresh');
    expect(build(fresh).rendered).toBe(620);
    const [incremental, full] = [siteFiles(rebuilt), siteFiles(fresh)];
    expect([...incremental.keys()]).toEqual([...full.keys()]);
    const differing = [...full].filter(([file, bytes]) => !bytes.equals(incremental.get(file)!)).map(([file]) => file);
    expect(differing).toEqual([]);
    expect(readFileSync(path.join(rebuilt, 'records.json'), 'utf8')).toContain(record.page.title.text);
  }, 600_000);
});
