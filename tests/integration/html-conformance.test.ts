// Every page and stylesheet of a site built from the sample records and the hostile fixture, checked by
// the Nu Html Checker (vnu.jar, the W3C's validator): record text, however hostile, cannot make a page invalid.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticRecords } from '../../src/lib/bench/bench.ts';
import { projectRoot } from '../support/records.ts';
import { runCli } from '../support/run.ts';
import { sharedSite } from '../support/shared-site.ts';

const VNU_JAR = path.join(path.dirname(createRequire(import.meta.url).resolve('vnu-jar/package.json')), 'build/dist/vnu.jar');

interface NuMessage {
  type: string;
  url?: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

/** The checker's errors for the given files, each as `file:line: message (extract)`. */
function nuErrors(site: string, files: string[]): string[] {
  const result = spawnSync(
    'java',
    ['-jar', VNU_JAR, '--errors-only', '--format', 'json', '--exit-zero-always', '--also-check-css', ...files],
    {
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  if (result.error) throw new Error(`could not run the Nu Html Checker (java -jar ${VNU_JAR}): ${result.error.message}`);
  const { messages } = JSON.parse(result.stderr) as { messages: NuMessage[] };
  return messages.map(
    (m) => `${m.url ? path.relative(site, new URL(m.url).pathname) : '?'}:${m.lastLine ?? '?'}: ${m.message} (${m.extract ?? ''})`,
  );
}

describe('the Nu Html Checker', () => {
  let site: string;
  let files: string[];

  beforeAll(async () => {
    site = (await sharedSite('samples-and-hostile')).dist;
    files = readdirSync(site, { recursive: true, encoding: 'utf8' })
      .filter((file) => (file.endsWith('.html') || file.endsWith('.css')) && !file.startsWith('pagefind'))
      .map((file) => path.join(site, file));
  }, 300_000);

  it('finds no error in any page or stylesheet of a site with hostile records', () => {
    // Home, search, 404, two documentation pages, and a garment page, a commerce page and a technical page per garment.
    expect(files.filter((file) => file.endsWith('.html')).length).toBeGreaterThanOrEqual(5 + 4 * 3);
    expect(files.some((file) => file.includes(`${path.sep}hostile-tee${path.sep}svc${path.sep}`))).toBe(true);
    expect(nuErrors(site, files)).toEqual([]);
  }, 180_000); // The checker reads every page of the site (each revision's too) in one run; nuErrors gives it 120 s.
});

describe('the Nu Html Checker on a large site', () => {
  it('finds no error in the home page or the category pages of a site too large for the home page to list every garment', async () => {
    const work = mkdtempSync(path.join(tmpdir(), 'conformance-large-'));
    const records = path.join(work, 'records');
    const site = path.join(work, 'dist');
    // 310 garments: the home page shows previews, and the largest category takes two pages.
    await writeSyntheticRecords(path.join(projectRoot, 'records'), records, 620);
    const build = runCli('build.ts', ['--records', records, '--out', site]);
    expect(build.status, build.stdout + build.stderr).toBe(0);
    expect(build.stdout).toMatch(/^site pages: home, category, search and documentation pages for 620 records/m);
    const pages = readdirSync(path.join(site, 'categories'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.html'))
      .map((file) => path.join(site, 'categories', file));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(nuErrors(site, [path.join(site, 'index.html'), ...pages])).toEqual([]);
  }, 180_000);
});
