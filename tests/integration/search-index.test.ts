import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/lib/site/strings.ts';
import { projectRoot } from '../support/records.ts';
import { runCli } from '../support/run.ts';

/** A page as Pagefind stored it: one fragment file per indexed page. */
interface Fragment {
  url: string;
  content: string;
  filters: Record<string, string[]>;
  meta: Record<string, string>;
}

/** Pagefind's fragments are gzipped JSON behind a 12-byte signature (`pagefind_dcd`). */
function readFragments(dist: string): Fragment[] {
  const dir = path.join(dist, 'pagefind/fragment');
  return readdirSync(dir).map((name) => {
    const bytes = gunzipSync(readFileSync(path.join(dir, name)));
    expect(bytes.subarray(0, 12).toString()).toBe('pagefind_dcd');
    return JSON.parse(bytes.subarray(12).toString('utf8')) as Fragment;
  });
}

/** The record pages of a built site: /garments/<slug>/<projection>/. */
function recordPages(dist: string): string[] {
  const garments = path.join(dist, 'garments');
  return readdirSync(garments, { withFileTypes: true })
    .filter((slug) => slug.isDirectory())
    .flatMap((slug) =>
      readdirSync(path.join(garments, slug.name), { withFileTypes: true })
        .filter((projection) => projection.isDirectory())
        .map((projection) => `/garments/${slug.name}/${projection.name}/`),
    )
    .sort();
}

function fingerprint(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return `${path.relative(dir, file)} ${statSync(file).mtimeMs}`;
    })
    .sort();
}

describe('the search index built by npm run build', () => {
  let work: string;
  let dist: string;
  let records: string;
  let stdout: string;

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'search-index-'));
    records = path.join(work, 'records');
    dist = path.join(work, 'dist');
    mkdirSync(records);
    cpSync(path.join(projectRoot, 'records'), records, { recursive: true });
    // The hostile records too: their pages must be indexed like any other.
    cpSync(path.join(projectRoot, 'tests/fixtures/hostile'), records, { recursive: true, filter: (f) => !f.endsWith('.md') });
    const result = runCli('build.ts', ['--records', records, '--out', dist]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    stdout = result.stdout;
  }, 120_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('is a step of the build, reported with its page count and duration', () => {
    const pages = recordPages(dist).length;
    expect(stdout).toMatch(new RegExp(`^search index: ${pages} pages indexed \\(\\d+\\.\\d s\\)$`, 'm'));
    expect(stdout.indexOf('search index:')).toBeLessThan(stdout.indexOf('built '));
  });

  it('covers every record page in dist/garments, and nothing else', () => {
    const pages = recordPages(dist);
    const entry = JSON.parse(readFileSync(path.join(dist, 'pagefind/pagefind-entry.json'), 'utf8')) as { languages: Record<string, { page_count: number }> };
    const indexed = Object.values(entry.languages).reduce((sum, language) => sum + language.page_count, 0);
    expect(pages.length).toBeGreaterThan(0);
    expect(indexed).toBe(pages.length);
    expect(readFragments(dist).map((f) => f.url).sort()).toEqual(pages);
  });

  it('indexes the main content only, not navigation, footer, downloads or in-page links', () => {
    const chrome = [t('nav.skip'), t('site.footer'), t('nav.contents'), t('site.docs'), t('claim.backlinkPrefix'), 'Download JSON', 'Download Markdown'];
    // The hostile records' own text holds `[1]`, so claim markers are looked for on the sample pages.
    const samples = new Set(readdirSync(path.join(projectRoot, 'records')).map((file) => file.split('.')[0]));
    for (const { url, content } of readFragments(dist)) {
      for (const text of chrome) expect(content.includes(text), `${url} holds “${text}”`).toBe(false);
      // Claim markers follow every sentence: they belong to the page, not to an excerpt.
      if (samples.has(url.split('/')[2]!)) expect(/\[\d+\]/.test(content), `${url} holds claim markers`).toBe(false);
    }
  });

  it('gives every page its filters and result metadata', () => {
    for (const fragment of readFragments(dist)) {
      expect(fragment.filters.projection, fragment.url).toEqual([fragment.url.endsWith('/svc/') ? 'Commerce' : 'Technical']);
      expect(fragment.filters.status, fragment.url).toHaveLength(1);
      expect(fragment.meta.title, fragment.url).toBeTruthy();
      expect(fragment.meta.projection, fragment.url).toBe(fragment.filters.projection![0]);
      if (fragment.meta.image !== undefined) expect(fragment.meta.image, fragment.url).toMatch(/^https?:\/\//);
    }
  });

  it('fails the build when Pagefind fails, leaving the last good output as it was', () => {
    const before = fingerprint(dist);
    const result = runCli('build.ts', ['--records', records, '--out', dist], {
      env: { PAGEFIND_EXTENDED_BINARY_PATH: path.join(work, 'no-such-pagefind'), PAGEFIND_BINARY_PATH: path.join(work, 'no-such-pagefind') },
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/SearchIndexError: search index: Pagefind failed/);
    expect(result.stdout).not.toMatch(/^built /m);
    expect(fingerprint(dist)).toEqual(before);
    expect(readdirSync(work).sort()).toEqual(['dist', 'records']);
  }, 120_000);
});
