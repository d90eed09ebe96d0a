import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot, sampleRecords } from '../support/records.ts';
import { runCli } from '../support/run.ts';
import { mountSmallFilesystem, type SmallFilesystem } from '../support/small-filesystem.ts';

const TEE = 'ridgeline-rk6210-heavyweight-tee';
const others = [...new Set(sampleRecords().map(({ record }) => record.slug))].filter((slug) => slug !== TEE);

/** Builds `records` into `out` and returns the build's report; fails the test when the build fails. */
function build(records: string, out: string): { records: number; rendered: number } {
  const report = path.join(path.dirname(out), 'report.json');
  const result = runCli('build.ts', ['--records', records, '--out', out, '--site', 'https://garments.example.org', '--report', report]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(readFileSync(report, 'utf8'));
}

/** Every file of a garment's output, by its path in the site, with its inode: a file rendered again is a new file. */
function garmentFiles(out: string, slug: string): Map<string, number> {
  const folder = path.join(out, 'garments', slug);
  return new Map(
    readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return [path.relative(out, file), statSync(file).ino];
      }),
  );
}

// Each test runs one or two whole builds of the sample site: a minute on a busy machine.
describe('rebuilding a site whose records have revisions', { timeout: 180_000 }, () => {
  let work: string;
  let records: string;
  let out: string;
  const archived = (n: number) => path.join(records, '.revisions', `${TEE}.svc`, `${n}.json`);
  const revisionJson = (n: number) => path.join(out, 'garments', TEE, 'svc', 'revisions', `${n}.json`);
  const twin = () => path.join(out, 'garments', TEE, 'svc.json');

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'revisions-rebuild-'));
    records = path.join(work, 'records');
    out = path.join(work, 'dist');
    cpSync(path.join(projectRoot, 'records'), records, { recursive: true });
    build(records, out);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('publishes each kept revision’s JSON as the archive’s file itself, and the latest as the JSON twin, byte for byte', () => {
    expect(readFileSync(revisionJson(1)).equals(readFileSync(archived(1)))).toBe(true);
    expect(statSync(revisionJson(1)).ino).toBe(statSync(archived(1)).ino);
    expect(readFileSync(revisionJson(2)).equals(readFileSync(twin()))).toBe(true);
    expect(statSync(revisionJson(2)).ino).toBe(statSync(twin()).ino);
  });

  it('renders nothing again when nothing changed: every garment’s history, changes and revision JSON stay the files they were', () => {
    const before = [TEE, ...others].map((slug) => garmentFiles(out, slug));
    expect(build(records, out).rendered).toBe(0);
    expect([TEE, ...others].map((slug) => garmentFiles(out, slug))).toEqual(before);
  });

  it('renders only the garment that got a new revision; the others’ history and change pages are not rendered again', () => {
    const untouched = others.map((slug) => garmentFiles(out, slug));
    expect(untouched.flatMap((files) => [...files.keys()]).filter((file) => file.includes('/revisions/')).length).toBeGreaterThan(0);
    const published = readFileSync(twin());
    const file = path.join(records, `${TEE}.svc.json`);
    const record = JSON.parse(readFileSync(file, 'utf8'));
    record.record_revision = '2026-11-27.1';
    record.published_at = '2026-11-27T08:00:00Z';
    record.page.sections.overview[0].text = 'Now sold in a recycled mailer.';
    writeFileSync(file, JSON.stringify(record, null, 2));

    expect(build(records, out).rendered).toBe(2);
    expect(others.map((slug) => garmentFiles(out, slug))).toEqual(untouched);

    // The tee's history has its third revision: kept, published, listed and fed.
    expect(readFileSync(archived(2)).equals(published)).toBe(true);
    expect(statSync(revisionJson(2)).ino).toBe(statSync(archived(2)).ino);
    expect(statSync(revisionJson(3)).ino).toBe(statSync(twin()).ino);
    expect(JSON.parse(readFileSync(revisionJson(3), 'utf8')).record_revision).toBe('2026-11-27.1');
    expect(readFileSync(path.join(out, 'garments', TEE, 'svc', 'revisions', '3', 'index.html'), 'utf8')).toContain('recycled mailer');
    const listed = JSON.parse(readFileSync(path.join(out, 'records.json'), 'utf8'));
    const entry = (listed.records ?? listed).find((r: { slug: string; projection: string }) => r.slug === TEE && r.projection === 'svc');
    expect(entry).toMatchObject({ revision_count: 3, last_change: { revision: 3, published_at: '2026-11-27T08:00:00Z' } });
    const feed = JSON.parse(readFileSync(path.join(out, 'feed.json'), 'utf8'));
    expect(feed.items[0].id).toBe(`https://garments.example.org/garments/${TEE}/svc/revisions/3.json`);
    expect(readFileSync(path.join(out, 'feed.xml'), 'utf8').split('<entry>')[1]).toContain(`/garments/${TEE}/svc/revisions/3.json</id>`);
  });

  it('renders a garment’s history again when its archive gains a revision though its record did not change (as a pull brings one)', () => {
    const untouched = others.map((slug) => garmentFiles(out, slug));
    const earlier = JSON.parse(readFileSync(path.join(out, 'garments', TEE, 'tech.json'), 'utf8'));
    earlier.record_revision = '2026-10-01.1';
    mkdirSync(path.join(records, '.revisions', `${TEE}.tech`));
    writeFileSync(path.join(records, '.revisions', `${TEE}.tech`, '1.json'), `${JSON.stringify(earlier, null, 2)}\n`);

    expect(build(records, out).rendered).toBe(2);
    expect(others.map((slug) => garmentFiles(out, slug))).toEqual(untouched);
    const history = readFileSync(path.join(out, 'garments', TEE, 'tech', 'revisions', 'index.html'), 'utf8');
    expect(history).toContain('2026-10-01.1');
    expect(JSON.parse(readFileSync(path.join(out, 'garments', TEE, 'tech', 'revisions', '1.json'), 'utf8')).record_revision).toBe(
      '2026-10-01.1',
    );
    expect(build(records, out).rendered).toBe(0);
  });
});

describe('a records folder on another file system than the site', { timeout: 180_000 }, () => {
  let disk: SmallFilesystem;
  let work: string;
  beforeAll(() => {
    disk = mountSmallFilesystem('4m');
    work = mkdtempSync(path.join(tmpdir(), 'revisions-other-device-'));
  });
  afterAll(() => {
    disk.unmount();
    rmSync(work, { recursive: true, force: true });
  });

  it('copies the archive’s revisions into the site, byte for byte, where they cannot be linked', () => {
    const records = path.join(disk.dir, 'records');
    cpSync(path.join(projectRoot, 'records'), records, { recursive: true });
    const out = path.join(work, 'dist');
    build(records, out);
    const kept = path.join(records, '.revisions', `${TEE}.svc`, '1.json');
    const published = path.join(out, 'garments', TEE, 'svc', 'revisions', '1.json');
    expect(readFileSync(published).equals(readFileSync(kept))).toBe(true);
    expect(statSync(published).dev).not.toBe(statSync(kept).dev);
  });
});
