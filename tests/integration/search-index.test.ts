import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFiles } from '../../src/lib/build/record-files.ts';
import { RecordFilesError, writeRecordOutputs } from '../../src/lib/build/record-outputs.ts';
import { buildSearchIndex, pageFromRecord, SearchIndexError } from '../../src/lib/search/index-site.ts';
import { searchRecord } from '../../src/lib/search/search-record.ts';
import { shardOf } from '../../src/lib/search/search-shards.ts';
import { indexEntries, readRecord, siteEntryOf, type SiteEntry } from '../../src/lib/site/site-index.ts';
import { t } from '../../src/lib/site/strings.ts';
import { projectRoot, sampleRecords } from '../support/records.ts';
import { node, runCli } from '../support/run.ts';

/** A page as Pagefind stored it: one fragment file per indexed page. */
interface Fragment {
  url: string;
  content: string;
  word_count: number;
  filters: Record<string, string[]>;
  meta: Record<string, string>;
}

/** The Pagefind bundles of an index, one per shard, as its shard list names them. */
function shardBundles(index: string): string[] {
  const list = JSON.parse(readFileSync(path.join(index, 'shards.json'), 'utf8')) as { count: number; shards: string[] };
  return list.shards.map((shard) => path.join(index, path.basename(shard)));
}

/** Pagefind's fragments, over every shard: gzipped JSON behind a 12-byte signature (`pagefind_dcd`). */
function readFragments(dist: string, index = path.join(dist, 'pagefind')): Fragment[] {
  return shardBundles(index).flatMap((bundle) => {
    const dir = path.join(bundle, 'fragment');
    return readdirSync(dir).map((name) => {
      const bytes = gunzipSync(readFileSync(path.join(dir, name)));
      expect(bytes.subarray(0, 12).toString()).toBe('pagefind_dcd');
      return JSON.parse(bytes.subarray(12).toString('utf8')) as Fragment;
    });
  });
}

/** Pages an index holds, from its shards' entry files. */
function indexedPages(index: string): number {
  return shardBundles(index).reduce((sum, bundle) => {
    const entry = JSON.parse(readFileSync(path.join(bundle, 'pagefind-entry.json'), 'utf8')) as { languages: Record<string, { page_count: number }> };
    return sum + Object.values(entry.languages).reduce((pages, language) => pages + language.page_count, 0);
  }, 0);
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
    expect(stdout).toMatch(new RegExp(`^search index: ${pages} pages in 1 shard, 1 built, 0 pages reused \\(\\d+\\.\\d s\\)$`, 'm'));
    expect(stdout.indexOf('search index:')).toBeLessThan(stdout.indexOf('built '));
  });

  it('covers every record page in dist/garments, and nothing else', () => {
    const pages = recordPages(dist);
    expect(pages.length).toBeGreaterThan(0);
    expect(indexedPages(path.join(dist, 'pagefind'))).toBe(pages.length);
    expect(readFragments(dist).map((f) => f.url).sort()).toEqual(pages);
  });

  it('indexes the main content only, not navigation, footer, downloads or in-page links', () => {
    const chrome = [t('nav.skip'), t('site.footer'), t('nav.contents'), t('site.docs'), t('cite.summary'), t('keyFacts.heading'), t('nav.backToContents')];
    // The hostile records' own text holds `[1]`, so claim markers are looked for on the sample pages.
    const samples = new Set(readdirSync(path.join(projectRoot, 'records')).map((file) => file.split('.')[0]));
    for (const { url, content } of readFragments(dist)) {
      for (const text of chrome) expect(content.includes(text), `${url} holds “${text}”`).toBe(false);
      // Claim markers follow every sentence: they belong to the page, not to an excerpt.
      if (samples.has(url.split('/')[2]!)) expect(/\[\d+\]/.test(content), `${url} holds claim markers`).toBe(false);
    }
  });

  it('holds each page’s reading text and the names a searcher types', () => {
    const fragments = new Map(readFragments(dist).map((f) => [f.url, f]));
    for (const { file, record } of sampleRecords()) {
      const entry = siteEntryOf(record, path.join(projectRoot, file));
      const fragment = fragments.get(`/garments/${record.slug}/${record.projection}/`);
      expect(fragment?.content, file).toBe(searchRecord(entry, readRecord(entry)).content);
      expect(fragment!.content).toContain(entry.title);
      if (record.data.identity.style_code) expect(fragment!.content).toContain(record.data.identity.style_code);
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

  it('after one record changed, a rebuild indexes its new text and every other page as before', () => {
    const before = new Map(readFragments(dist).map((f) => [f.url, f]));
    const [changed] = sampleRecords();
    const file = path.join(records, path.basename(changed!.file));
    const edited = JSON.parse(readFileSync(file, 'utf8'));
    edited.page.sections.overview.push({ text: 'A rebuild marker about wombats', claim_ids: [], kind: 'fact' });
    writeFileSync(file, JSON.stringify(edited, null, 2));
    const result = runCli('build.ts', ['--records', records, '--out', dist]);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\(2 rendered\)/);

    const changedUrl = `/garments/${changed!.record.slug}/${changed!.record.projection}/`;
    const after = readFragments(dist);
    expect(after.map((f) => f.url).sort()).toEqual([...before.keys()].sort());
    for (const fragment of after) {
      if (fragment.url === changedUrl) expect(fragment.content).toContain('A rebuild marker about wombats.');
      else expect(fragment, fragment.url).toEqual(before.get(fragment.url));
    }
  }, 120_000);

  it('fails the build when Pagefind fails, leaving the last good output as it was', () => {
    const before = fingerprint(dist);
    // --fresh: with nothing changed, an incremental build would not index again.
    const result = runCli('build.ts', ['--records', records, '--out', dist, '--fresh'], {
      env: { PAGEFIND_EXTENDED_BINARY_PATH: path.join(work, 'no-such-pagefind'), PAGEFIND_BINARY_PATH: path.join(work, 'no-such-pagefind') },
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/SearchIndexError: search index: Pagefind failed/);
    expect(result.stdout).not.toMatch(/^built /m);
    expect(fingerprint(dist)).toEqual(before);
    expect(readdirSync(work).sort()).toEqual(['dist', 'records']);
  }, 120_000);
});

describe('buildSearchIndex', () => {
  let work: string;
  const entries = (): SiteEntry[] => sampleRecords().map(({ file, record }) => siteEntryOf(record, path.join(projectRoot, file)));

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'search-records-'));
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('indexes one page per record straight from the records, with no HTML, replacing what the output folder held', async () => {
    const out = path.join(work, 'direct');
    mkdirSync(path.join(out, 'fragment'), { recursive: true });
    writeFileSync(path.join(out, 'fragment/stale.pf_fragment'), 'left by an older index');
    const progress: string[] = [];
    const summary = await buildSearchIndex(entries(), out, { pageOf: pageFromRecord, concurrency: 2, onProgress: (indexed, total) => progress.push(`${indexed}/${total}`) });
    expect(summary.pages).toBe(entries().length);
    expect(progress.at(-1)).toBe(`${entries().length}/${entries().length}`);
    // Pagefind runs as a child process: its memory and CPU are reported apart from this process's.
    if (process.platform === 'linux') {
      expect(summary.pagefind.peakRssMb).toBeGreaterThan(0);
      expect(summary.pagefind.cpuSeconds).toBeGreaterThan(0);
    }
    expect(readFragments(work, out).map((f) => f.url).sort()).toEqual(entries().map((e) => `/garments/${e.slug}/${e.projection}/`).sort());
  });

  it('names the record it could not read, and leaves no Pagefind process behind', async () => {
    const [first, ...rest] = entries();
    const missing = { ...first!, file: path.join(work, 'gone.json') };
    const failure = await buildSearchIndex([missing, ...rest], path.join(work, 'missing'), { pageOf: pageFromRecord }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SearchIndexError);
    expect((failure as Error).message).toMatch(/^search index: could not read .*gone\.json: ENOENT/);
    // The service was closed: a new index starts a fresh one.
    expect((await buildSearchIndex(rest, path.join(work, 'after'), { pageOf: pageFromRecord })).pages).toBe(rest.length);
  });

  it('closes Pagefind only once it has answered every record handed to it, so a failure prints nothing of Pagefind', () => {
    // In a process of its own, whose error output is Pagefind's too: a page fails while hundreds are being indexed.
    const script = path.join(work, 'failing-index.ts');
    writeFileSync(script, `
      import { buildSearchIndex } from ${JSON.stringify(path.join(projectRoot, 'src/lib/search/index-site.ts'))};
      const entries = Array.from({ length: 600 }, (_, i) => ({ file: 'g' + i + '.svc.json', slug: 'g' + String(i).padStart(4, '0'), projection: 'svc' as const }));
      const pageOf = async (entry: { slug: string }) => {
        if (entry.slug === 'g0400') throw new Error('this page cannot be made');
        return { url: '/garments/' + entry.slug + '/svc/', content: 'Garment ' + entry.slug + ' in heavyweight cotton. '.repeat(20), language: 'en' as const, meta: { title: entry.slug }, filters: { projection: ['Commerce'] }, sort: { title: entry.slug } };
      };
      await buildSearchIndex(entries, ${JSON.stringify(path.join(work, 'failing'))}, { pageOf }).catch((error: Error) => console.log(error.message));
    `);
    for (let run = 0; run < 3; run++) {
      const result = spawnSync(node, [script], { encoding: 'utf8', timeout: 120_000 });
      expect(result.stdout).toContain('this page cannot be made');
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    }
  });

  it('refuses an index that would hold fewer pages than records, as when two records share a page', async () => {
    const [first, ...rest] = entries();
    const failure = await buildSearchIndex([first!, first!, ...rest], path.join(work, 'twice'), { pageOf: pageFromRecord }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SearchIndexError);
    expect((failure as Error).message).toMatch(/holds \d+ pages, expected \d+ \(one per record\)/);
  });

  it('rebuilds from the previous index, reading only the changed garment’s records, into the index a fresh build makes', async () => {
    const records = path.join(work, 'changed-records');
    mkdirSync(records);
    cpSync(path.join(projectRoot, 'records'), records, { recursive: true });
    const entriesIn = () => sampleRecords().map(({ file, record }) => siteEntryOf(record, path.join(records, path.basename(file))));
    const before = path.join(work, 'before');
    await buildSearchIndex(entriesIn(), before, { pageOf: pageFromRecord });

    const [changed] = sampleRecords();
    const edited = { ...changed!.record, page: { ...changed!.record.page, headline: { text: 'Freshly rewritten headline about quokkas', claim_ids: [], kind: 'fact' } } };
    writeFileSync(path.join(records, path.basename(changed!.file)), JSON.stringify(edited));
    // Unchanged records must not be read: their files are gone.
    const current = entriesIn();
    const unchanged = current.filter((e) => e.slug !== changed!.record.slug);
    for (const entry of unchanged) rmSync(entry.file, { force: true });

    const rebuilt = path.join(work, 'rebuilt');
    const summary = await buildSearchIndex(current, rebuilt, { pageOf: pageFromRecord, previous: { bundleDir: before, changedSlugs: new Set([changed!.record.slug]) } });
    expect(summary).toMatchObject({ pages: current.length, reused: unchanged.length });
    const byUrl = (dir: string) => readFragments(work, dir).sort((a, b) => a.url.localeCompare(b.url));
    const rebuiltPages = byUrl(rebuilt);
    expect(rebuiltPages.find((f) => f.content.includes('quokkas'))?.url).toBe(`/garments/${changed!.record.slug}/${changed!.record.projection}/`);
    // The same index as a fresh build of the current records.
    const fresh = byUrl(path.join(work, 'direct'));
    const freshChanged = searchRecord(current.find((e) => e.file.endsWith(path.basename(changed!.file)))!, edited as never);
    expect(rebuiltPages.map((f) => f.url)).toEqual(fresh.map((f) => f.url));
    for (const page of rebuiltPages) {
      const expected = fresh.find((f) => f.url === page.url)!;
      expect(page, page.url).toEqual(page.content.includes('quokkas') ? { ...expected, content: freshChanged.content, word_count: page.word_count } : expected);
    }
  });

  it('splits a large index into shards, and a rebuild keeps every shard no changed garment falls in', async () => {
    const all = entries();
    const before = path.join(work, 'shards-before');
    const first = await buildSearchIndex(all, before, { pageOf: pageFromRecord, shardPages: 2 });
    expect(first).toMatchObject({ pages: all.length, shards: 3 });
    expect(shardBundles(before).length).toBe(first.built);
    expect(indexedPages(before)).toBe(all.length);

    const changed = all[0]!.slug;
    const after = path.join(work, 'shards-after');
    const rebuilt = await buildSearchIndex(all, after, { pageOf: pageFromRecord, shardPages: 2, previous: { bundleDir: before, changedSlugs: new Set([changed]) } });
    expect(rebuilt).toMatchObject({ pages: all.length, shards: 3, built: 1 });
    // Kept shards are the previous files themselves (linked), not files written again.
    const kept = shardBundles(after).filter((bundle) => path.basename(bundle) !== String(shardOf(changed, 3)));
    expect(kept.length).toBe(shardBundles(after).length - 1);
    for (const bundle of kept) {
      for (const name of readdirSync(path.join(bundle, 'fragment'))) expect(statSync(path.join(bundle, 'fragment', name)).ino).toBe(statSync(path.join(before, path.basename(bundle), 'fragment', name)).ino);
    }
    const byUrl = (dir: string) => readFragments(work, dir).sort((a, b) => a.url.localeCompare(b.url));
    expect(byUrl(after)).toEqual(byUrl(before));
  });

  it('reads every record when the previous index is missing', async () => {
    const summary = await buildSearchIndex(entries(), path.join(work, 'no-previous'), { pageOf: pageFromRecord, previous: { bundleDir: path.join(work, 'nowhere'), changedSlugs: new Set() } });
    expect(summary).toMatchObject({ pages: entries().length, reused: 0 });
  });

  it('writes the pages and twins of the rendered garments and the same index from one read of each record, in worker threads', async () => {
    const siteDir = path.join(work, 'outputs');
    const site = 'https://garments.example/';
    const stylesheet = '/styles/site.test.css';
    const all = entries();
    const rendered = all[0]!.slug;
    const progress: number[] = [];
    const summary = await writeRecordOutputs({ entries: all, checkedFiles: checkedFiles(all), renderedSlugs: [rendered], siteDir, site, stylesheet }, (indexed) => progress.push(indexed));
    expect(summary.search.pages).toBe(all.length);
    expect(progress.at(-1)).toBe(all.length);
    const index = indexEntries(all, new Set([rendered]));
    const written = all.filter((entry) => entry.slug === rendered);
    expect(summary.pages.records).toBe(written.length);
    for (const entry of written) {
      const files = recordFiles(index.garments.get(entry.slug)!, entry, readRecord(entry), readFileSync(entry.file), { site, stylesheet });
      expect(files.map((file) => file.sitePath)).toEqual([
        `/garments/${entry.slug}/${entry.projection}/index.html`,
        `/garments/${entry.slug}/${entry.projection}.json`,
        `/garments/${entry.slug}/${entry.projection}.md`,
      ]);
      for (const { sitePath, content } of files) expect(readFileSync(path.join(siteDir, sitePath))).toEqual(Buffer.from(typeof content === 'string' || content instanceof Uint8Array ? content : content.join('')));
    }
    // Garments not rendered keep the twins the last build made (carried over), so none are written for them.
    expect(readdirSync(path.join(siteDir, 'garments')).sort()).toEqual([rendered]);
    const direct = readFragments(work, path.join(work, 'direct')).sort((a, b) => a.url.localeCompare(b.url));
    expect(readFragments(work, path.join(siteDir, 'pagefind')).sort((a, b) => a.url.localeCompare(b.url))).toEqual(direct);
  });

  it('reports a record it cannot read, and files it cannot write, as a RecordFilesError naming the record', async () => {
    const job = { site: 'https://x.example/', stylesheet: '/styles/site.test.css' };
    const missing = { ...entries()[0]!, file: path.join(work, 'gone.json') };
    const siteDir = path.join(work, 'outputs-missing');
    const withMissing = [missing, ...entries().slice(1)];
    const checked = new Map([...checkedFiles(entries().slice(1)), [missing.file, { file: missing.file, size: 10, mtimeMs: 0 }]]);
    const unreadable = await writeRecordOutputs({ ...job, entries: withMissing, checkedFiles: checked, renderedSlugs: null, siteDir }).catch((error: unknown) => error);
    expect(unreadable).toBeInstanceOf(RecordFilesError);
    expect((unreadable as Error).message).toMatch(/^pages: failed while reading .*gone\.json: /);
    // Every thread has ended by then: nothing more is written into the folder.
    const written = fingerprint(siteDir);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fingerprint(siteDir)).toEqual(written);

    const blocked = path.join(work, 'outputs-blocked');
    mkdirSync(blocked);
    writeFileSync(path.join(blocked, 'garments'), 'a file where the garments folder goes');
    const unwritable = await writeRecordOutputs({ ...job, entries: entries(), checkedFiles: checkedFiles(entries()), renderedSlugs: null, siteDir: blocked }).catch((error: unknown) => error);
    expect(unwritable).toBeInstanceOf(RecordFilesError);
    expect((unwritable as Error).message).toMatch(/^pages: failed while writing the files of \/garments\/[\w-]+\/: ENOTDIR/);
  });

  it('renders a record file only as it was checked: one edited since fails the pages, naming the file', async () => {
    const job = { site: 'https://x.example/', stylesheet: '/styles/site.test.css', renderedSlugs: null };
    const [first, ...rest] = entries();
    const edited = { ...first!, file: path.join(work, `edited.${first!.projection}.json`) };
    cpSync(first!.file, edited.file);
    const checked = checkedFiles([edited, ...rest]);
    // The same record, rewritten in another layout after its check: its size is no longer the checked one.
    writeFileSync(edited.file, JSON.stringify(JSON.parse(readFileSync(edited.file, 'utf8'))));
    const failed = await writeRecordOutputs({ ...job, entries: [edited, ...rest], checkedFiles: checked, siteDir: path.join(work, 'outputs-edited') }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RecordFilesError);
    expect((failed as Error).message).toBe(`pages: failed while reading ${edited.file}: the file changed after the build first looked at it: build again`);
    // As checked, it renders.
    const summary = await writeRecordOutputs({ ...job, entries: [edited, ...rest], checkedFiles: checkedFiles([edited, ...rest]), siteDir: path.join(work, 'outputs-as-checked') });
    expect(summary.pages.records).toBe(rest.length + 1);
  });
});


/** Each entry's record file with its size and modification time now, as a check records them. */
function checkedFiles(list: SiteEntry[]): Map<string, { file: string; size: number; mtimeMs: number }> {
  return new Map(list.map(({ file }) => [file, { file, size: statSync(file).size, mtimeMs: statSync(file).mtimeMs }]));
}
