import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/lib/pipeline/site-build.ts';
import { projectRoot } from '../support/records.ts';
import { runCli } from '../support/run.ts';

/** Every file of a built site but the build's state, with its bytes as text. */
function siteFiles(dir: string): Map<string, string> {
  return new Map(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter(
        (entry) => entry.isFile() && !entry.parentPath.includes('.garment-press') && !entry.parentPath.includes(`${path.sep}pagefind`),
      )
      .map((entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return [path.relative(dir, file), readFileSync(file, 'latin1')] as const;
      }),
  );
}

describe('buildSite', { timeout: 120_000 }, () => {
  let work: string;
  let whole: string;
  let part: string;

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'site-build-'));
    whole = path.join(work, 'whole');
    part = path.join(work, 'part');
    cpSync(path.join(projectRoot, 'records'), whole, { recursive: true });
    cpSync(path.join(projectRoot, 'records'), part, { recursive: true });
    // The second site: two garments fewer, and one record retitled.
    const [first, second, third] = readdirSync(part)
      .filter((name) => name.endsWith('.json'))
      .sort() as [string, string, string];
    rmSync(path.join(part, first));
    rmSync(path.join(part, second));
    const retitled = JSON.parse(readFileSync(path.join(part, third), 'utf8'));
    retitled.page.title.text = 'Second Site Only Tee';
    writeFileSync(path.join(part, third), JSON.stringify(retitled, null, 2));
  });

  it('builds two sites one after the other in one process, each from its own records and address only, Astro in a process of its own', async () => {
    const wholeOut = path.join(work, 'whole-dist');
    const partOut = path.join(work, 'part-dist');
    const first = await buildSite({ recordsDir: whole, outDir: wholeOut, site: 'https://first.example' });
    const second = await buildSite({ recordsDir: part, outDir: partOut, site: 'https://second.example' });
    expect([first.ok, first.records, second.ok, second.records]).toEqual([true, 6, true, 4]);
    // Astro renders in a process of its own (its memory is not added to the record threads'); its CPU is the build's.
    expect(first.peakRssMb['Astro process']).toBeGreaterThan(0);
    expect(first.cpuSeconds['Astro process']).toBeGreaterThan(0);
    expect(first.cpuSeconds.build).toBeGreaterThan(first.cpuSeconds['Astro process']!);
    // The kernel's share (writing the site's files) is part of the build's CPU, told apart.
    expect(first.cpuSeconds.kernel).toBeGreaterThan(0);
    expect(first.cpuSeconds.kernel).toBeLessThan(first.cpuSeconds.build!);

    const listed = (out: string) =>
      (JSON.parse(readFileSync(path.join(out, 'records.json'), 'utf8')) as { records: { links: { self: string } }[] }).records.map(
        (r) => r.links.self,
      );
    expect(listed(wholeOut)).toHaveLength(6);
    expect(listed(wholeOut).every((url) => url.startsWith('https://first.example/'))).toBe(true);
    expect(listed(partOut)).toHaveLength(4);
    expect(listed(partOut).every((url) => url.startsWith('https://second.example/'))).toBe(true);
    expect(readFileSync(path.join(partOut, 'index.html'), 'utf8')).toContain('Second Site Only Tee');
    expect(readFileSync(path.join(wholeOut, 'index.html'), 'utf8')).not.toContain('Second Site Only Tee');
    expect(readFileSync(path.join(partOut, 'sitemap.xml'), 'utf8')).not.toContain('https://first.example');

    // The second site is the one its own process would build: nothing of the first stays behind.
    const alone = path.join(work, 'part-alone');
    const cli = runCli('build.ts', ['--records', part, '--out', alone, '--site', 'https://second.example']);
    expect(cli.status, cli.stderr).toBe(0);
    expect(siteFiles(partOut)).toEqual(siteFiles(alone));
  });

  it("sends no usage report: Astro's process runs no git (its project id) and makes no request to Astro's telemetry", async () => {
    // A git first on the PATH that leaves a mark when run: Astro's telemetry runs git to name the project before reporting.
    const bin = path.join(work, 'marking-bin');
    const mark = path.join(work, 'git-was-run');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'git'), `#!/bin/sh\ntouch '${mark}'\nexit 1\n`);
    chmodSync(path.join(bin, 'git'), 0o755);
    const pathBefore = process.env.PATH;
    process.env.PATH = `${bin}${path.delimiter}${pathBefore}`;
    try {
      const built = await buildSite({ recordsDir: whole, outDir: path.join(work, 'quiet-dist'), site: 'https://quiet.example' });
      expect(built.ok).toBe(true);
    } finally {
      process.env.PATH = pathBefore;
    }
    expect(existsSync(mark)).toBe(false);
  });
});
