import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { projectRoot, sampleRecords } from '../support/records.ts';
import { runCli } from '../support/run.ts';

const samples = sampleRecords();
const [first, second] = [...new Set(samples.map((s) => s.record.slug))] as [string, string];

// Each test runs two or three whole builds of the sample site: a minute on a busy machine.
describe('rebuilding a site that was built before', { timeout: 120_000 }, () => {
  let work: string;
  let records: string;
  let out: string;

  /** Runs a build and returns its report; fails the test when the build fails. */
  function build(...extra: string[]): { records: number; rendered: number; timings: Record<string, number> } {
    const report = path.join(work, 'report.json');
    const result = runCli('build.ts', [
      '--records',
      records,
      '--out',
      out,
      '--site',
      'https://garments.example.org',
      '--report',
      report,
      ...extra,
    ]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return JSON.parse(readFileSync(report, 'utf8'));
  }
  const inode = (file: string) => statSync(path.join(out, file)).ino;
  const page = (slug: string, projection: string) => readFileSync(path.join(out, 'garments', slug, projection, 'index.html'), 'utf8');
  const recordFile = (slug: string, projection: string) =>
    path.join(records, path.basename(samples.find((s) => s.record.slug === slug && s.record.projection === projection)!.file));

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'incremental-'));
    records = path.join(work, 'records');
    out = path.join(work, 'dist');
    cpSync(path.join(projectRoot, 'records'), records, { recursive: true });
    expect(build().rendered).toBe(samples.length);
  });

  it('does nothing when no record changed, leaving every file as it was', () => {
    const before = inode(`garments/${first}/svc/index.html`);
    const report = build();
    expect(report).toMatchObject({ records: samples.length, rendered: 0 });
    expect(report.timings.render).toBeUndefined();
    expect(inode(`garments/${first}/svc/index.html`)).toBe(before);
  });

  it('renders only the garment whose record changed, and carries the others over unchanged', () => {
    const untouched = [`garments/${second}/svc/index.html`, `garments/${second}/tech.json`, `garments/${second}/tech.md`].map(inode);
    const file = recordFile(first, 'svc');
    const record = JSON.parse(readFileSync(file, 'utf8'));
    record.page.sections.overview.push({ text: 'Now sold in a recycled mailer.', claim_ids: [], kind: 'fact' });
    writeFileSync(file, JSON.stringify(record, null, 2));

    expect(build().rendered).toBe(2);
    expect(page(first, 'svc')).toContain('Now sold in a recycled mailer.');
    expect(readFileSync(path.join(out, 'garments', first, 'svc.md'), 'utf8')).toContain('Now sold in a recycled mailer.');
    expect(JSON.parse(readFileSync(path.join(out, 'garments', first, 'svc.json'), 'utf8')).page.sections.overview.at(-1).text).toBe(
      'Now sold in a recycled mailer.',
    );
    expect([`garments/${second}/svc/index.html`, `garments/${second}/tech.json`, `garments/${second}/tech.md`].map(inode)).toEqual(
      untouched,
    );
  });

  it('updates the other projection and the site-wide files when a record is removed', () => {
    rmSync(recordFile(first, 'tech'));
    expect(build().rendered).toBe(1);
    expect(() => statSync(path.join(out, 'garments', first, 'tech.json'))).toThrow();
    expect(JSON.parse(readFileSync(path.join(out, 'garments', first, 'svc.json'), 'utf8')).links.other_projection).toBeNull();
    const listed = JSON.parse(readFileSync(path.join(out, 'records.json'), 'utf8'));
    expect(JSON.stringify(listed)).not.toContain(`${first}/tech`);
  });

  it('renders a garment again when its output was deleted by hand', () => {
    rmSync(path.join(out, 'garments', second, 'tech.md'));
    expect(build().rendered).toBe(2);
    expect(readFileSync(path.join(out, 'garments', second, 'tech.md'), 'utf8')).toContain('schema_version');
  });

  it('builds everything again, saying so, when a site page or search file was deleted by hand', () => {
    rmSync(path.join(out, 'index.html'));
    const shard = path.basename(JSON.parse(readFileSync(path.join(out, 'pagefind', 'shards.json'), 'utf8')).shards[0]);
    rmSync(path.join(out, 'pagefind', shard, 'pagefind-entry.json'));
    const result = runCli('build.ts', ['--records', records, '--out', out, '--site', 'https://garments.example.org']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`the last build's output lacks 2 files (index.html, …): building everything`);
    expect(result.stdout).toMatch(new RegExp(`^built ${samples.length - 1} records \\(${samples.length - 1} rendered\\)`, 'm'));
    expect(readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('<h1');
    const rebuilt = path.basename(JSON.parse(readFileSync(path.join(out, 'pagefind', 'shards.json'), 'utf8')).shards[0]);
    expect(statSync(path.join(out, 'pagefind', rebuilt, 'pagefind-entry.json')).size).toBeGreaterThan(0);
    // And the next rebuild finds nothing to do again.
    expect(build().rendered).toBe(0);
  });

  it('refuses to replace a site to which files were added, naming them, even to start fresh; builds once they are moved out', () => {
    // A CSV beside a page that the build did not name as one of its tables is a file added by hand too.
    const pageFolder = path.dirname(
      readdirSync(path.join(out, 'garments'), { recursive: true })
        .map(String)
        .find((f) => f.endsWith('offers.csv'))!,
    );
    const addedCsv = path.join('garments', pageFolder, 'my-prices.csv');
    const added = ['CNAME', path.join('.well-known', 'security.txt'), path.join('garments', 'notes.txt'), addedCsv];
    for (const file of added) {
      mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
      writeFileSync(path.join(out, file), 'kept by hand');
    }
    for (const extra of [[], ['--fresh']]) {
      const result = runCli('build.ts', ['--records', records, '--out', out, '--site', 'https://garments.example.org', ...extra]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`holds 4 files no build made (.well-known, CNAME, ${path.join('garments', 'notes.txt')}, …)`);
      for (const file of added) expect(readFileSync(path.join(out, file), 'utf8')).toBe('kept by hand');
    }
    for (const file of ['CNAME', '.well-known', path.join('garments', 'notes.txt'), addedCsv])
      rmSync(path.join(out, file), { recursive: true });
    expect(build().rendered).toBe(0);
  });

  it('renders everything again when the site address changes or when asked to start fresh', () => {
    const report = path.join(work, 'report.json');
    const moved = runCli('build.ts', ['--records', records, '--out', out, '--site', 'https://elsewhere.example.org', '--report', report]);
    expect(moved.status).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8')).rendered).toBe(samples.length - 1);
    expect(JSON.parse(readFileSync(path.join(out, 'garments', second, 'svc.json'), 'utf8')).links.self).toMatch(
      /^https:\/\/elsewhere\.example\.org\//,
    );
    expect(build('--fresh').rendered).toBe(samples.length - 1);
  });

  it.each([
    ['a build', ['--fresh']],
    ['a rebuild with nothing to do', []],
  ])('%s removes what builds stopped before cleaning up left, and nothing of a build still running', async (_, options) => {
    const ended = spawnSync(process.execPath, ['-e', '']).pid;
    const running = `dist.staging-${process.pid}`;
    for (const name of [`dist.staging-${ended}`, `dist.previous-${ended}`, running]) {
      mkdirSync(path.join(work, name, 'garments'), { recursive: true });
      writeFileSync(path.join(work, name, 'garments', 'index.html'), 'left behind');
    }
    // A stopped build's Astro folder in the project, and its index file in the temporary folder (the build's, as it inherits TMPDIR).
    const astroBuilds = path.join(projectRoot, '.astro', 'builds');
    mkdirSync(path.join(astroBuilds, String(ended), 'chunks'), { recursive: true });
    mkdirSync(path.join(astroBuilds, String(process.pid)), { recursive: true });
    const indexFiles = (pid: number) => path.join(tmpdir(), `garment-press-index-${pid}.json`);
    writeFileSync(indexFiles(ended), '{}');
    writeFileSync(indexFiles(process.pid), '{}');
    build(...options);
    await vi.waitFor(
      () => {
        expect(readdirSync(work).sort()).toEqual(['dist', running, 'records', 'report.json'].sort());
        expect(readdirSync(astroBuilds)).not.toContain(String(ended));
        expect(readdirSync(tmpdir())).not.toContain(`garment-press-index-${ended}.json`);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(readdirSync(astroBuilds)).toContain(String(process.pid));
    expect(readdirSync(tmpdir())).toContain(`garment-press-index-${process.pid}.json`);
    rmSync(path.join(work, running), { recursive: true });
    rmSync(path.join(astroBuilds, String(process.pid)), { recursive: true });
    rmSync(indexFiles(process.pid));
  });

  it('removes each site it replaced, in the background once the new one is in place', async () => {
    // Every build above but the first replaced the site before it.
    await vi.waitFor(() => expect(readdirSync(work).sort()).toEqual(['dist', 'records', 'report.json']), {
      timeout: 30_000,
      interval: 100,
    });
  });
});

describe('rebuilding with folders named relative to the working directory, as the README does', { timeout: 120_000 }, () => {
  it('renders the changed garment and carries the others over', () => {
    const work = mkdtempSync(path.join(tmpdir(), 'incremental-relative-'));
    cpSync(path.join(projectRoot, 'records'), path.join(work, 'records'), { recursive: true });
    const build = () => runCli('build.ts', ['--records', 'records', '--out', 'dist', '--report', 'report.json'], { cwd: work });
    expect(build().status).toBe(0);
    const changed = path.join(
      work,
      'records',
      path.basename(samples.find((s) => s.record.slug === first && s.record.projection === 'svc')!.file),
    );
    const record = JSON.parse(readFileSync(changed, 'utf8'));
    record.page.sections.overview.push({ text: 'Now sold in a recycled mailer.', claim_ids: [], kind: 'fact' });
    writeFileSync(changed, JSON.stringify(record, null, 2));

    const result = build();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(JSON.parse(readFileSync(path.join(work, 'report.json'), 'utf8'))).toMatchObject({ records: samples.length, rendered: 2 });
    expect(readFileSync(path.join(work, 'dist', 'garments', first, 'svc', 'index.html'), 'utf8')).toContain(
      'Now sold in a recycled mailer.',
    );
    rmSync(work, { recursive: true, force: true });
  });
});
