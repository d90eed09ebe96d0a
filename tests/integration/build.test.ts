import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fingerprint } from '../support/fingerprint.ts';
import { projectRoot } from '../support/records.ts';
import { runCli } from '../support/run.ts';

// Each test runs two or three whole builds of the sample site: a minute on a busy machine.
describe('npm run build', { timeout: 120_000 }, () => {
  let work: string;
  let records: string;
  let out: string;

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'build-'));
    records = path.join(work, 'records');
    out = path.join(work, 'dist');
    cpSync(path.join(projectRoot, 'records'), records, { recursive: true });
  });

  it('builds the site from a records folder into an output folder, showing progress per stage', () => {
    const result = runCli('build.ts', ['--records', records, '--out', out]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^validate: 6 files \(0 unchanged since the last build\), 6 valid records, 0 errors/m);
    expect(result.stdout).toMatch(/^site pages: home, search and documentation pages for 6 records/m);
    expect(result.stdout).toMatch(/^render: 6 records into pages, JSON and Markdown in \d+ threads/m);
    expect(result.stdout).toMatch(/^search index: 3 garments \(6 records\) in 1 shard, 1 built, 0 records reused/m);
    expect(result.stdout).toMatch(/^built 6 records \(6 rendered\) into /m);
    expect(readFileSync(path.join(out, 'index.html'), 'utf8')).toContain('<h1');
    // The 404 page answers every missing address: it claims none as its own and asks not to be indexed.
    const notFound = readFileSync(path.join(out, '404.html'), 'utf8');
    expect(notFound).toContain('<meta name="robots" content="noindex">');
    expect(notFound).not.toMatch(/rel="canonical"|og:url/);
  });

  it('stops on an invalid record before building, prints every problem, and leaves the last good output as it was', () => {
    const before = fingerprint(out);
    writeFileSync(path.join(records, 'broken.svc.json'), '{"schema_version": "garment-access/2.4.0"}');
    writeFileSync(path.join(records, 'broken-too.tech.json'), '{');
    writeFileSync(path.join(records, 'latin1.svc.json'), Buffer.from('{\n  "slug": "caf\xe9"\n}', 'latin1'));
    symlinkSync(path.join(work, 'gone.svc.json'), path.join(records, 'gone.svc.json'));
    const result = runCli('build.ts', ['--records', records, '--out', out]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('broken.svc.json: /slug: missing required property "slug"');
    expect(result.stdout).toContain('broken-too.tech.json: (record): invalid JSON at line 1, column 2');
    expect(result.stdout).toContain(
      'latin1.svc.json: (record): not UTF-8 text at line 2, column 15: byte 0xE9 is not part of a UTF-8 character',
    );
    expect(result.stdout).toContain(
      `gone.svc.json: (record): cannot be read: it is a link to ${path.join(work, 'gone.svc.json')}, which does not exist`,
    );
    expect(result.stderr).toMatch(/build stopped: \d+ error\(s\) in the records; .* was left unchanged/);
    expect(fingerprint(out)).toEqual(before);
    expect(readdirSync(work).sort()).toEqual(['dist', 'records']);
  });

  it('checks every record in the threads that render it on a first build, and stops on an invalid one with every problem printed', () => {
    const before = fingerprint(out);
    const result = runCli('build.ts', ['--records', records, '--out', out, '--fresh']);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      /^validate: 10 files \(0 unchanged since the last build\), 6 valid records, \d+ errors \(in the record threads, /m,
    );
    expect(result.stdout).toContain('broken.svc.json: /slug: missing required property "slug"');
    expect(result.stdout).toContain('broken-too.tech.json: (record): invalid JSON at line 1, column 2');
    expect(result.stdout).toContain(
      'latin1.svc.json: (record): not UTF-8 text at line 2, column 15: byte 0xE9 is not part of a UTF-8 character',
    );
    expect(result.stdout).toContain(
      `gone.svc.json: (record): cannot be read: it is a link to ${path.join(work, 'gone.svc.json')}, which does not exist`,
    );
    expect(result.stdout).not.toMatch(/^site pages:/m);
    expect(fingerprint(out)).toEqual(before);
    expect(readdirSync(work).sort()).toEqual(['dist', 'records']);
  });

  it('builds the same site whether or not every record file is named after its record', () => {
    const named = path.join(work, 'named');
    const renamed = path.join(work, 'renamed');
    const unconventional = path.join(work, 'unconventional');
    for (const folder of [named, renamed, unconventional]) cpSync(path.join(projectRoot, 'records'), folder, { recursive: true });
    const [first, second] = readdirSync(named)
      .filter((name) => name.endsWith('.json'))
      .sort() as [string, string];
    // One file named after another garment's record, then one not named as a record file at all.
    renameSync(path.join(renamed, first), path.join(renamed, `someone-else.${first.split('.').at(-2)}.json`));
    renameSync(path.join(unconventional, second), path.join(unconventional, 'notes.json'));
    const sites = [named, renamed, unconventional].map((folder) => {
      const site = `${folder}-dist`;
      const result = runCli('build.ts', ['--records', folder, '--out', site]);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      return { site, stdout: result.stdout };
    });
    expect(sites[0]!.stdout).toMatch(/\(in the record threads, /);
    expect(sites[1]!.stdout).toContain(
      `render again: ${path.join(renamed, `someone-else.${first.split('.').at(-2)}.json`)} holds another record than its name says; named ${first}, it would render in one read\n`,
    );
    expect(sites[2]!.stdout).not.toMatch(/in the record threads/);
    const pages = (site: string) =>
      readdirSync(site, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && !entry.parentPath.includes('pagefind') && !entry.parentPath.includes('.garment-press'))
        .map((entry) => path.join(entry.parentPath, entry.name))
        .map((file) => [path.relative(site, file), readFileSync(file, 'utf8')])
        .sort();
    const expected = pages(sites[0]!.site);
    expect(
      expected.some(
        ([file]) => file === path.join('garments', JSON.parse(readFileSync(path.join(named, first), 'utf8')).slug, 'index.html'),
      ),
    ).toBe(true);
    for (const { site } of sites.slice(1)) expect(pages(site)).toEqual(expected);
    for (const folder of [named, renamed, unconventional]) {
      rmSync(`${folder}-dist`, { recursive: true });
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('refuses an output folder that holds the records, is inside them, or holds files no build made, and touches nothing', () => {
    const elsewhere = path.join(work, 'photos');
    mkdirSync(elsewhere);
    writeFileSync(path.join(elsewhere, 'holiday.jpg'), 'not a site');
    const before = { records: fingerprint(records), elsewhere: fingerprint(elsewhere) };
    for (const [outDir, said] of [
      [records, `the output folder ${records} holds the records (${records})`],
      [work, `the output folder ${work} holds the records (${records})`],
      [path.join(records, 'site'), `the output folder ${path.join(records, 'site')} is inside the records folder ${records}`],
      [
        elsewhere,
        `the output folder ${elsewhere} holds files that no build made (it has no ${path.join('.garment-press', 'build-state.json')})`,
      ],
    ] as const) {
      const result = runCli('build.ts', ['--records', records, '--out', outDir]);
      expect(result.status, outDir).toBe(1);
      expect(result.stderr).toContain(`OutputFolderError: ${said}`);
    }
    expect(fingerprint(records)).toEqual(before.records);
    expect(fingerprint(elsewhere)).toEqual(before.elsewhere);
    rmSync(elsewhere, { recursive: true });
  });

  it('builds into the folder an --out link leads to, keeping the link, and knows the records reached through a link', () => {
    const served = path.join(work, 'served');
    const current = path.join(work, 'current');
    mkdirSync(served);
    symlinkSync(served, current);
    const built = runCli('build.ts', ['--records', path.join(projectRoot, 'records'), '--out', current]);
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
    expect(lstatSync(current).isSymbolicLink()).toBe(true);
    expect(readdirSync(served)).toContain('index.html');

    const recordsLink = path.join(work, 'records-link');
    symlinkSync(records, recordsLink);
    const refused = runCli('build.ts', ['--records', records, '--out', path.join(recordsLink, 'site')]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`the output folder ${path.join(records, 'site')} is inside the records folder ${records}`);
    for (const made of [served, current, recordsLink]) rmSync(made, { recursive: true });
  });

  it('refuses a records folder without records, rather than replace the site with an empty one', () => {
    const empty = path.join(work, 'empty-records');
    mkdirSync(empty);
    writeFileSync(path.join(empty, 'notes.txt'), 'not a record');
    const before = fingerprint(out);
    // A rebuild over the last build's state, and a fresh one, read the folder on different paths.
    for (const extra of [[], ['--fresh']]) {
      const result = runCli('build.ts', ['--records', empty, '--out', out, ...extra]);
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(
        `NoRecordsError: ${empty}: no record files (*.json) in it or its folders; a site needs at least one record\nbuild failed; ${out}/ was left unchanged\n`,
      );
    }
    expect(fingerprint(out)).toEqual(before);
    const missing = runCli('build.ts', ['--records', path.join(work, 'nope'), '--out', out]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(`build: --records ${path.join(work, 'nope')}: no such file or folder\n`);
  });

  it('exits 2 on an unknown option', () => {
    expect(runCli('build.ts', ['--recrods', records]).status).toBe(2);
  });

  it('exits 2, before building, on a site address that is not an absolute http(s) URL', () => {
    for (const site of ['garments.example', 'javascript:alert(1)', 'ftp://garments.example', 'https://']) {
      const result = runCli('build.ts', ['--records', records, '--out', path.join(work, 'never'), '--site', site]);
      expect(result.status, site).toBe(2);
      expect(result.stderr).toBe(`build: --site expects an absolute http(s) URL, got ${JSON.stringify(site)}\n`);
    }
    expect(readdirSync(work)).not.toContain('never');
  });

  it('exits 2, before building, on a site address below a path, whose pages would lose their styles and links', () => {
    for (const site of [
      'https://garments.example/press/',
      'https://garments.example/press',
      'https://garments.example/?v=1',
      'https://garments.example/#top',
    ]) {
      const result = runCli('build.ts', ['--records', records, '--out', path.join(work, 'never'), '--site', site]);
      expect(result.status, site).toBe(2);
      expect(result.stderr).toBe(
        `build: --site expects the address of a site's root, such as https://garments.example/, got ${JSON.stringify(site)}: pages link from /, so the site must be served from the root of its host\n`,
      );
    }
    expect(readdirSync(work)).not.toContain('never');
  });
});
