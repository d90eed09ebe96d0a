import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFiles } from '../../src/lib/pipeline/record-files.ts';
import { RecordFilesError, writeRecordOutputs } from '../../src/lib/pipeline/record-outputs.ts';
import { buildSearchIndex, pageFromRecord, SearchIndexError } from '../../src/lib/search/index/index-site.ts';
import { garmentPage, searchRecord } from '../../src/lib/search/index/search-record.ts';
import { shardOf } from '../../src/lib/search/index/shard-layout.ts';
import {
  openSearchIndex,
  searchGarments,
  type GarmentQuery,
  type GarmentSearch,
  type SearchIndex,
} from '../../src/lib/search/query/shard-search.ts';
import { indexEntries, readRecord, siteEntryOf, type SiteEntry } from '../../src/lib/site/site-index.ts';
import { t } from '../../src/lib/site/strings.ts';
import { projectRoot, sampleRecords } from '../support/records.ts';
import { node, runCli } from '../support/run.ts';
import { sharedSite } from '../support/shared-site.ts';

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
    const entry = JSON.parse(readFileSync(path.join(bundle, 'pagefind-entry.json'), 'utf8')) as {
      languages: Record<string, { page_count: number }>;
    };
    return sum + Object.values(entry.languages).reduce((pages, language) => pages + language.page_count, 0);
  }, 0);
}

/** The garments of a built site, one search page each: /garments/<slug>/. */
function garmentPages(dist: string): string[] {
  return [...new Set(recordPages(dist).map((page) => `${page.split('/').slice(0, 3).join('/')}/`))].sort();
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
  let dist: string;
  let stdout: string;

  // The hostile records too: their pages must be indexed like any other.
  beforeAll(async () => {
    ({ dist, stdout } = await sharedSite('samples-and-hostile'));
  }, 300_000);

  it('is a step of the build, reported with its garments, records and duration', () => {
    const garments = garmentPages(dist).length;
    const pages = recordPages(dist).length;
    expect(stdout).toMatch(
      new RegExp(
        `^search index: ${garments} garments \\(${pages} records\\) in 1 shard, 1 built, 0 records reused \\(\\d+\\.\\d s\\)$`,
        'm',
      ),
    );
    expect(stdout.indexOf('search index:')).toBeLessThan(stdout.indexOf('built '));
  });

  it('covers every garment in dist/garments, one page each, and nothing else', () => {
    const pages = garmentPages(dist);
    expect(pages.length).toBeGreaterThan(0);
    expect(indexedPages(path.join(dist, 'pagefind'))).toBe(pages.length);
    expect(
      readFragments(dist)
        .map((f) => f.url)
        .sort(),
    ).toEqual(pages);
  });

  it('leaves out the bundle files the site does not load, and lists each shard with its content tag and entry file, the filter values and the word lists', () => {
    for (const bundle of shardBundles(path.join(dist, 'pagefind'))) {
      expect(
        readdirSync(bundle).filter((name) => /pagefind-(ui|component-ui|modular-ui|highlight)|wasm\.unknown/.test(name)),
        bundle,
      ).toEqual([]);
      expect(readdirSync(bundle)).toEqual(
        expect.arrayContaining(['pagefind.js', 'pagefind-worker.js', 'wasm.en.pagefind', 'pagefind-entry.json']),
      );
    }
    const list = JSON.parse(readFileSync(path.join(dist, 'pagefind', 'shards.json'), 'utf8'));
    expect(list.tags).toHaveLength(list.shards.length);
    expect(list.tags[0]).toMatch(/^en_[0-9a-f]+$/);
    // The browser takes each entry file from the list, as Pagefind wrote it.
    expect(list.entries).toEqual(
      list.shards.map((bundle: string) => JSON.parse(readFileSync(path.join(dist, bundle, 'pagefind-entry.json'), 'utf8'))),
    );
    expect(list.filters.projection).toEqual({ Commerce: expect.any(Number), Technical: expect.any(Number) });
    const fleece = JSON.parse(readFileSync(path.join(dist, list.words.f), 'utf8')).fleece;
    expect(fleece[0]).toBeGreaterThan(0);
  });

  it('indexes the main content only, not navigation, footer, downloads or in-page links', () => {
    const chrome = [
      t('nav.skip'),
      t('site.footer'),
      t('nav.contents'),
      t('site.docs'),
      t('cite.summary'),
      t('keyFacts.heading'),
      t('nav.backToContents'),
    ];
    // The hostile records' own text holds `[1]`, so claim markers are looked for on the sample pages.
    const samples = new Set(readdirSync(path.join(projectRoot, 'records')).map((file) => file.split('.')[0]));
    for (const { url, content } of readFragments(dist)) {
      for (const text of chrome) expect(content.includes(text), `${url} holds “${text}”`).toBe(false);
      // Claim markers follow every sentence: they belong to the page, not to an excerpt.
      if (samples.has(url.split('/')[2]!)) expect(/\[\d+\]/.test(content), `${url} holds claim markers`).toBe(false);
    }
  });

  it('holds each garment’s reading text, and the names a searcher types apart from it', () => {
    const fragments = new Map(readFragments(dist).map((f) => [f.url, f]));
    for (const pair of Map.groupBy(sampleRecords(), ({ record }) => record.slug).values()) {
      const made = garmentPage(pair.map(({ file, record }) => searchRecord(siteEntryOf(record, path.join(projectRoot, file)), record)));
      const fragment = fragments.get(made.url);
      expect(fragment?.content, made.url).toBe(made.content);
      expect(fragment!.meta, made.url).toEqual(made.meta);
      expect(fragment!.content).toContain(siteEntryOf(pair[0]!.record, 'x.json').title);
    }
  });

  it('gives every garment its filters and result metadata', () => {
    for (const fragment of readFragments(dist)) {
      const projections = fragment.meta.projections!.split(' ');
      expect(fragment.filters.projection, fragment.url).toEqual(projections.map((code) => (code === 'svc' ? 'Commerce' : 'Technical')));
      expect(fragment.meta.title, fragment.url).toBeTruthy();
      for (const code of projections) expect(fragment.meta[`status_${code}`], fragment.url).toBeTruthy();
      if (fragment.meta.image !== undefined) expect(fragment.meta.image, fragment.url).toMatch(/^https?:\/\//);
    }
  });
});

describe('the search index rebuilt by npm run build', () => {
  let work: string;
  let dist: string;
  let records: string;

  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'search-index-'));
    records = path.join(work, 'records');
    dist = path.join(work, 'dist');
    mkdirSync(records);
    cpSync(path.join(projectRoot, 'records'), records, { recursive: true });
    cpSync(path.join(projectRoot, 'tests/fixtures/hostile'), records, { recursive: true, filter: (f) => !f.endsWith('.md') });
    const result = runCli('build.ts', ['--records', records, '--out', dist]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

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

    const changedUrl = `/garments/${changed!.record.slug}/`;
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
      env: {
        PAGEFIND_EXTENDED_BINARY_PATH: path.join(work, 'no-such-pagefind'),
        PAGEFIND_BINARY_PATH: path.join(work, 'no-such-pagefind'),
      },
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

  it('indexes one page per garment straight from the records, with no HTML, replacing what the output folder held', async () => {
    const out = path.join(work, 'direct');
    mkdirSync(path.join(out, 'fragment'), { recursive: true });
    writeFileSync(path.join(out, 'fragment/stale.pf_fragment'), 'left by an older index');
    const progress: string[] = [];
    const summary = await buildSearchIndex(entries(), out, {
      pageOf: pageFromRecord,
      concurrency: 2,
      onProgress: (indexed, total) => progress.push(`${indexed}/${total}`),
    });
    expect(summary.pages).toBe(entries().length);
    expect(progress.at(-1)).toBe(`${entries().length}/${entries().length}`);
    // Pagefind runs as a child process: its memory and CPU are reported apart from this process's.
    if (process.platform === 'linux') {
      expect(summary.pagefind.peakRssMb).toBeGreaterThan(0);
      expect(summary.pagefind.cpuSeconds).toBeGreaterThan(0);
    }
    expect(
      readFragments(work, out)
        .map((f) => f.url)
        .sort(),
    ).toEqual([...new Set(entries().map((e) => `/garments/${e.slug}/`))].sort());
  });

  it('names the record it could not read, and leaves no Pagefind process behind', async () => {
    const [first, ...rest] = entries();
    const missing = { ...first!, file: path.join(work, 'gone.json') };
    const failure = await buildSearchIndex([missing, ...rest], path.join(work, 'missing'), { pageOf: pageFromRecord }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SearchIndexError);
    expect((failure as Error).message).toMatch(/^search index: could not read .*gone\.json: ENOENT/);
    // The service was closed: a new index starts a fresh one.
    expect((await buildSearchIndex(rest, path.join(work, 'after'), { pageOf: pageFromRecord })).pages).toBe(rest.length);
  });

  it('closes Pagefind only once it has answered every record handed to it, so a failure prints nothing of Pagefind', () => {
    // In a process of its own, whose error output is Pagefind's too: a page fails while hundreds are being indexed.
    const script = path.join(work, 'failing-index.ts');
    writeFileSync(
      script,
      `
      import { buildSearchIndex } from ${JSON.stringify(path.join(projectRoot, 'src/lib/search/index/index-site.ts'))};
      const entries = Array.from({ length: 600 }, (_, i) => ({ file: 'g' + i + '.svc.json', slug: 'g' + String(i).padStart(4, '0'), projection: 'svc' as const }));
      const pageOf = async (entry: { slug: string }) => {
        if (entry.slug === 'g0400') throw new Error('this page cannot be made');
        // Pages take a varying while, as records read from disk do: some are still being made when one fails.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5));
        return { url: '/garments/' + entry.slug + '/svc/', projection: 'svc' as const, reading: Array.from({ length: 20 }, (_, i) => 'Garment ' + entry.slug + ' in heavyweight cotton ' + i + '.'), names: [], meta: { title: entry.slug, status: 'Complete' }, filters: { projection: ['Commerce'] }, sort: { title: entry.slug, published: '2026-01-01' } };
      };
      await buildSearchIndex(entries, ${JSON.stringify(path.join(work, 'failing'))}, { pageOf }).catch((error: Error) => console.log(error.message));
    `,
    );
    for (let run = 0; run < 3; run++) {
      const result = spawnSync(node, [script], { encoding: 'utf8', timeout: 120_000 });
      expect(result.stdout).toContain('this page cannot be made');
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
    }
  });

  it('refuses two records that would be one page', async () => {
    const [first, ...rest] = entries();
    const failure = await buildSearchIndex([first!, first!, ...rest], path.join(work, 'twice'), { pageOf: pageFromRecord }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SearchIndexError);
    expect((failure as Error).message).toMatch(/would be one page \([\w-]+, (svc|tech)\); do two records share a page\?/);
  });

  it('rebuilds from the previous index, reading only the changed garment’s records, into the index a fresh build makes', async () => {
    const records = path.join(work, 'changed-records');
    mkdirSync(records);
    cpSync(path.join(projectRoot, 'records'), records, { recursive: true });
    const entriesIn = () => sampleRecords().map(({ file, record }) => siteEntryOf(record, path.join(records, path.basename(file))));
    const before = path.join(work, 'before');
    await buildSearchIndex(entriesIn(), before, { pageOf: pageFromRecord });

    const [changed] = sampleRecords();
    const edited = {
      ...changed!.record,
      page: { ...changed!.record.page, headline: { text: 'Freshly rewritten headline about quokkas', claim_ids: [], kind: 'fact' } },
    };
    writeFileSync(path.join(records, path.basename(changed!.file)), JSON.stringify(edited));
    // Unchanged records must not be read: their files are gone.
    const current = entriesIn();
    const unchanged = current.filter((e) => e.slug !== changed!.record.slug);
    for (const entry of unchanged) rmSync(entry.file, { force: true });

    const rebuilt = path.join(work, 'rebuilt');
    const summary = await buildSearchIndex(current, rebuilt, {
      pageOf: pageFromRecord,
      previous: { bundleDir: before, changedSlugs: new Set([changed!.record.slug]) },
    });
    expect(summary).toMatchObject({ pages: current.length, reused: unchanged.length });
    const byUrl = (dir: string) => readFragments(work, dir).sort((a, b) => a.url.localeCompare(b.url));
    const rebuiltPages = byUrl(rebuilt);
    expect(rebuiltPages.find((f) => f.content.includes('quokkas'))?.url).toBe(`/garments/${changed!.record.slug}/`);
    // The same index as a fresh build of the current records (the changed garment's other record is read again too).
    const fresh = byUrl(path.join(work, 'direct'));
    expect(rebuiltPages.map((f) => f.url)).toEqual(fresh.map((f) => f.url));
    for (const page of rebuiltPages) {
      if (!page.content.includes('quokkas')) expect(page, page.url).toEqual(fresh.find((f) => f.url === page.url));
    }
  });

  it('splits a large index into shards, and a rebuild keeps every shard no changed garment falls in', async () => {
    const all = entries();
    const before = path.join(work, 'shards-before');
    const first = await buildSearchIndex(all, before, { pageOf: pageFromRecord, shardPages: 2 });
    expect(first).toMatchObject({ pages: all.length, shards: 3 });
    expect(shardBundles(before).length).toBe(first.built);
    expect(indexedPages(before)).toBe(first.garments);

    const changed = all[0]!.slug;
    const after = path.join(work, 'shards-after');
    const rebuilt = await buildSearchIndex(all, after, {
      pageOf: pageFromRecord,
      shardPages: 2,
      previous: { bundleDir: before, changedSlugs: new Set([changed]) },
    });
    expect(rebuilt).toMatchObject({ pages: all.length, shards: 3, built: 1 });
    // Kept shards are the previous files themselves (linked), not files written again.
    const kept = shardBundles(after).filter((bundle) => path.basename(bundle).split('.')[0] !== String(shardOf(changed, 3)));
    expect(kept.length).toBe(shardBundles(after).length - 1);
    for (const bundle of kept) {
      for (const name of readdirSync(path.join(bundle, 'fragment')))
        expect(statSync(path.join(bundle, 'fragment', name)).ino).toBe(
          statSync(path.join(before, path.basename(bundle), 'fragment', name)).ino,
        );
    }
    const byUrl = (dir: string) => readFragments(work, dir).sort((a, b) => a.url.localeCompare(b.url));
    expect(byUrl(after)).toEqual(byUrl(before));
  });

  it('reads every record when the previous index is missing', async () => {
    const summary = await buildSearchIndex(entries(), path.join(work, 'no-previous'), {
      pageOf: pageFromRecord,
      previous: { bundleDir: path.join(work, 'nowhere'), changedSlugs: new Set() },
    });
    expect(summary).toMatchObject({ pages: entries().length, reused: 0 });
  });

  it('writes the pages and twins of the rendered garments and the same index from one read of each record, in worker threads', async () => {
    const siteDir = path.join(work, 'outputs');
    const site = 'https://garments.example/';
    const stylesheet = '/styles/site.test.css';
    const all = entries();
    const rendered = all[0]!.slug;
    const progress: number[] = [];
    const summary = await writeRecordOutputs(
      { entries: all, checkedFiles: checkedFiles(all), renderedSlugs: [rendered], siteDir, site, stylesheet },
      (indexed) => progress.push(indexed),
    );
    expect(summary.search.pages).toBe(all.length);
    expect(progress.at(-1)).toBe(all.length);
    const index = indexEntries(all, new Set([rendered]));
    const written = all.filter((entry) => entry.slug === rendered);
    expect(summary.pages.records).toBe(written.length);
    for (const entry of written) {
      const files = recordFiles(index.garments.get(entry.slug)!, entry, readRecord(entry), readFileSync(entry.file), { site, stylesheet });
      const sitePaths = files.map((file) => file.sitePath);
      expect(sitePaths.slice(0, 3)).toEqual([
        `/garments/${entry.slug}/${entry.projection}/index.html`,
        `/garments/${entry.slug}/${entry.projection}.json`,
        `/garments/${entry.slug}/${entry.projection}.md`,
      ]);
      // Then each table's CSV and the record's history pages, all inside the record's own folder.
      for (const sitePath of sitePaths.slice(3))
        expect(sitePath).toMatch(new RegExp(`^/garments/${entry.slug}/${entry.projection}/(revisions/|[^/]+\\.csv$)`));
      // A revision's JSON is its twin's bytes, linked.
      const bytesOf = (content: (typeof files)[number]['content']): Buffer =>
        typeof content === 'string' || content instanceof Uint8Array
          ? Buffer.from(content)
          : 'linkTo' in content
            ? bytesOf(files.find((file) => 'sitePath' in content.linkTo && file.sitePath === content.linkTo.sitePath)!.content)
            : Buffer.from(content.join(''));
      for (const { sitePath, content } of files) expect(readFileSync(path.join(siteDir, sitePath))).toEqual(bytesOf(content));
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
    const unreadable = await writeRecordOutputs({
      ...job,
      entries: withMissing,
      checkedFiles: checked,
      renderedSlugs: null,
      siteDir,
    }).catch((error: unknown) => error);
    expect(unreadable).toBeInstanceOf(RecordFilesError);
    expect((unreadable as Error).message).toMatch(/^pages: failed while reading .*gone\.json: /);
    // Every thread has ended by then: nothing more is written into the folder.
    const written = fingerprint(siteDir);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fingerprint(siteDir)).toEqual(written);

    const blocked = path.join(work, 'outputs-blocked');
    mkdirSync(blocked);
    writeFileSync(path.join(blocked, 'garments'), 'a file where the garments folder goes');
    const unwritable = await writeRecordOutputs({
      ...job,
      entries: entries(),
      checkedFiles: checkedFiles(entries()),
      renderedSlugs: null,
      siteDir: blocked,
    }).catch((error: unknown) => error);
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
    const failed = await writeRecordOutputs({
      ...job,
      entries: [edited, ...rest],
      checkedFiles: checked,
      siteDir: path.join(work, 'outputs-edited'),
    }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RecordFilesError);
    expect((failed as Error).message).toBe(
      `pages: failed while reading ${edited.file}: the file changed after the build first looked at it: build again`,
    );
    // As checked, it renders.
    const summary = await writeRecordOutputs({
      ...job,
      entries: [edited, ...rest],
      checkedFiles: checkedFiles([edited, ...rest]),
      siteDir: path.join(work, 'outputs-as-checked'),
    });
    expect(summary.pages.records).toBe(rest.length + 1);
  });
});

/** Each entry's record file with its size and modification time now, as a check records them. */
function checkedFiles(list: SiteEntry[]): Map<string, { file: string; size: number; mtimeMs: number }> {
  return new Map(list.map(({ file }) => [file, { file, size: statSync(file).size, mtimeMs: statSync(file).mtimeMs }]));
}

describe('searchGarments over a built index, as the browser and the MCP tool run it', () => {
  let work: string;
  let index: SearchIndex;
  const realFetch = globalThis.fetch;
  const titles = new Map(sampleRecords().map(({ record }) => [record.slug, siteEntryOf(record, 'x.json').title]));
  const search = (words: string, more: Partial<GarmentQuery> = {}) =>
    searchGarments(index, { words, filters: {}, sort: null, counts: false, ...more });
  const urls = async (found: GarmentSearch) => (await found.hits.next(100)).map((data) => data.url);

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'search-garments-'));
    const bundleDir = path.join(work, 'pagefind');
    // A shard a garment: every search merges shards, and a word one garment says is missing from the others.
    await buildSearchIndex(
      sampleRecords().map(({ file, record }) => siteEntryOf(record, path.join(projectRoot, file))),
      bundleDir,
      { pageOf: pageFromRecord, shardPages: 2 },
    );
    const file = (sitePath: string) => path.join(work, sitePath.split('?')[0]!);
    globalThis.fetch = (async (url: string | URL) => new Response(readFileSync(file(String(url))))) as typeof fetch;
    const list = JSON.parse(readFileSync(path.join(bundleDir, 'shards.json'), 'utf8'));
    index = await openSearchIndex(list, {
      pagefind: (bundle) => import(path.join(file(bundle), 'pagefind.js')),
      json: async (sitePath) => JSON.parse(readFileSync(file(sitePath), 'utf8')),
    });
  }, 120_000);

  afterAll(() => {
    globalThis.fetch = realFetch;
    rmSync(work, { recursive: true, force: true });
  });

  it('finds exactly the one garment that says a word, though Pagefind alone fills the other shards with near words', async () => {
    const found = await search('twill');
    expect(await urls(found)).toEqual(['/garments/fieldline-fl300-twill-work-jacket/']);
    const raw = await index.pagefind!.search('twill');
    expect(raw.results.length).toBeGreaterThanOrEqual(found.hits.count);
  });

  it('takes a word with one letter dropped for the word garments say', async () => {
    const found = await search('twll');
    expect(found).toMatchObject({ searched: 'twill', corrected: true });
    expect(await urls(found)).toEqual(['/garments/fieldline-fl300-twill-work-jacket/']);
  });

  it("takes a word with its first letter dropped, changed or swapped for the word garments say, from another letter's word list", async () => {
    const hoodie = await urls(await search('hoodie'));
    expect(hoodie.length).toBeGreaterThan(0);
    for (const typed of ['oodie', 'joodie', 'ohodie']) {
      const found = await search(typed);
      expect(found, typed).toMatchObject({ searched: 'hoodie', corrected: true });
      expect(await urls(found)).toEqual(hoodie);
    }
  });

  it('finds nothing for a word no garment says nor is one edit from, and offers near words that do find garments', async () => {
    const found = await search('flxxce');
    expect(found.hits.count).toBe(0);
    expect(found.suggestions).toContain('fleece');
    expect((await search(found.suggestions[0]!)).hits.count).toBeGreaterThan(0);
  });

  it('runs without a word no garment says when other words are left, naming it', async () => {
    const fleece = await urls(await search('fleece'));
    expect(fleece.length).toBeGreaterThan(0);
    for (const words of ['fleece xqxq', 'xqxq fleece', 'flece xqxq zzzz']) {
      const found = await search(words);
      expect(found, words).toMatchObject({ searched: 'fleece', corrected: true, suggestions: [] });
      expect(found.dropped, words).toEqual(words.split(' ').filter((word) => !word.startsWith('fle')));
      expect(await urls(found), words).toEqual(fleece);
    }
    expect(await search('xqxq')).toMatchObject({ searched: 'xqxq', dropped: [], suggestions: [] });
  });

  it('offers no word for “sweater” that only shares letters with it, such as “water”', async () => {
    expect((await urls(await search('water'))).length).toBeGreaterThan(0);
    const found = await search('sweater');
    expect(found.hits.count).toBe(0);
    expect(found.suggestions).not.toContain('water');
  });

  it('finds a size as the size filter does, however it is spelled', async () => {
    for (const size of ['4XL', '3XL', '2XL']) {
      const filtered = await urls(await search('', { filters: { size: [size] } }));
      expect(filtered.length, size).toBeGreaterThan(0);
      for (const typed of [size, size.toLowerCase(), `${'X'.repeat(Number(size[0]))}L`]) {
        const found = await search(typed);
        expect(found, typed).toMatchObject({ searched: size.toLowerCase(), corrected: false });
        expect((await urls(found)).sort(), typed).toEqual(filtered.sort());
      }
    }
  });

  it('finds by a name searched apart from the text: a style code', async () => {
    const record = sampleRecords().find(({ record }) => record.data.identity.style_code)!.record;
    expect(await urls(await search(record.data.identity.style_code!))).toContain(`/garments/${record.slug}/`);
  });

  it('keeps a sorted search in order across shards', async () => {
    const byTitle = await urls(
      await search('', { filters: { projection: ['Commerce', 'Technical'] }, sort: { key: 'title', direction: 'asc' } }),
    );
    const expected = [...new Set(sampleRecords().map(({ record }) => record.slug))]
      .sort((a, b) => titles.get(a)!.localeCompare(titles.get(b)!, 'en'))
      .map((slug) => `/garments/${slug}/`);
    expect(byTitle).toEqual(expected);
  });

  it('narrows by filter values, alternatives within a filter, and counts what each value would leave', async () => {
    const found = await search('', { filters: { brand: ['Ridgeline', 'Fieldline'] }, counts: true });
    expect(found.hits.count).toBe(2);
    await index.pagefind!.filters();
    const counted = await search('', { filters: { brand: ['Ridgeline'] }, counts: true });
    expect(counted.filters!.brand).toMatchObject({ Ridgeline: 1, Fieldline: 1 });
  });
});
