import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUILD_STATE_VERSION,
  type BuildState,
  buildFingerprint,
  changedGarments,
  readBuildState,
  restoredCheck,
  STATE_FILE,
  storedChecks,
  writeBuildState,
} from '../../../src/lib/pipeline/build-state.ts';
import { missingOutput } from '../../../src/lib/pipeline/carry-over.ts';
import type { FileCheck } from '../../../src/lib/record/index.ts';
import type { RevisionsSummary } from '../../../src/lib/revisions/revision-view.ts';
import type { SiteEntry } from '../../../src/lib/site/site-index.ts';

function check(file: string, slug: string, projection: 'svc' | 'tech', mtimeMs = 1, kept = 0): FileCheck<SiteEntry> {
  const revisions: RevisionsSummary = { count: kept + 1, kept, revisions: [] };
  const summary = { slug, projection, file, revisions } as SiteEntry;
  return { file, size: 100, mtimeMs, problems: [], record: { file, slug, projection, summary } };
}

describe('changedGarments', () => {
  it('finds nothing when every record has the same size and modification time', () => {
    const checks = [check('a.svc.json', 'a', 'svc'), check('a.tech.json', 'a', 'tech')];
    expect(changedGarments(checks, [...checks])).toEqual(new Set());
  });

  it('names the garment of a changed, added or removed record, and no other', () => {
    const before = [check('a.svc.json', 'a', 'svc'), check('b.svc.json', 'b', 'svc'), check('c.svc.json', 'c', 'svc')];
    const after = [check('a.svc.json', 'a', 'svc', 2), check('b.svc.json', 'b', 'svc'), check('d.tech.json', 'd', 'tech')];
    expect(changedGarments(before, after)).toEqual(new Set(['a', 'c', 'd']));
  });

  it('names a garment whose archive keeps another revision while its record file is the same', () => {
    const before = [check('a.svc.json', 'a', 'svc'), check('b.svc.json', 'b', 'svc', 1, 2)];
    const after = [check('a.svc.json', 'a', 'svc', 1, 1), check('b.svc.json', 'b', 'svc', 1, 2)];
    expect(changedGarments(before, after)).toEqual(new Set(['a']));
  });

  it('names a garment whose record moved to another file', () => {
    expect(changedGarments([check('a.json', 'a', 'svc')], [check('renamed.json', 'a', 'svc')])).toEqual(new Set(['a']));
  });
});

describe('storedChecks and restoredCheck', () => {
  it('store paths relative to the records folder and restore them as the build names them', () => {
    const records = path.resolve('/data/records');
    const [stored] = storedChecks([check(path.join(records, 'a.svc.json'), 'a', 'svc')], records);
    expect(stored!.file).toBe('a.svc.json');
    expect(stored!.record!.summary.file).toBe('a.svc.json');
    const restored = restoredCheck(stored!, 'records/a.svc.json', records);
    expect(restored.file).toBe('records/a.svc.json');
    expect(restored.record!.summary.file).toBe(path.join(records, 'a.svc.json'));
  });
});

describe('buildFingerprint', () => {
  it('changes when a source file, astro.config.mjs or a setting changes, and only then', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'fingerprint-'));
    mkdirSync(path.join(root, 'src'));
    writeFileSync(path.join(root, 'src', 'page.astro'), '<h1>a</h1>');
    const first = await buildFingerprint(root, { site: 'https://a.example' });
    expect(await buildFingerprint(root, { site: 'https://a.example' })).toBe(first);
    expect(await buildFingerprint(root, { site: 'https://b.example' })).not.toBe(first);
    writeFileSync(path.join(root, 'src', 'page.astro'), '<h1>b</h1>');
    const second = await buildFingerprint(root, { site: 'https://a.example' });
    expect(second).not.toBe(first);
    writeFileSync(path.join(root, 'astro.config.mjs'), "export default { build: { format: 'file' } };");
    expect(await buildFingerprint(root, { site: 'https://a.example' })).not.toBe(second);
  });

  it('changes when a file in public/ changes, which Astro copies into the site', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'fingerprint-'));
    mkdirSync(path.join(root, 'public', 'scripts'), { recursive: true });
    writeFileSync(path.join(root, 'public', 'scripts', 'page.js'), 'let a = 1;');
    const first = await buildFingerprint(root, {});
    writeFileSync(path.join(root, 'public', 'scripts', 'page.js'), 'let a = 2;');
    expect(await buildFingerprint(root, {})).not.toBe(first);
  });
});

describe('missingOutput', () => {
  it('names a garment whose page, JSON or Markdown is missing from the previous build', () => {
    const entries = [
      { slug: 'a', projection: 'svc' },
      { slug: 'b', projection: 'tech' },
    ] as SiteEntry[];
    const complete = (slug: string, projection: string) =>
      ['index.html', `${projection}/index.html`, `${projection}.json`, `${projection}.md`].map((name) => path.join('garments', slug, name));
    const output = new Map([
      ['a', complete('a', 'svc')],
      ['b', complete('b', 'tech').filter((file) => !file.endsWith('.md'))],
    ]);
    expect(missingOutput(entries, output)).toEqual(new Set(['b']));
  });
});

describe('writeBuildState and readBuildState', () => {
  const state = (): BuildState => ({
    version: BUILD_STATE_VERSION,
    fingerprint: 'f'.repeat(64),
    checks: [
      check('a.svc.json', 'a', 'svc'),
      check('a.tech.json', 'a', 'tech', 2, 1),
      { file: 'bad.json', size: 3, mtimeMs: 4, problems: [] },
    ],
    siteFiles: ['index.html', 'records.json'],
    listingPages: { '/categories/tops/': 'd1' },
  });
  const folder = () => mkdtempSync(path.join(tmpdir(), 'build-state-'));

  it('read back the state written, a line for its fields and then a line per file check', async () => {
    const out = folder();
    await writeBuildState(out, state());
    expect(await readBuildState(out)).toEqual(state());
    const lines = readFileSync(path.join(out, STATE_FILE), 'utf8').split('\n');
    expect(lines).toHaveLength(state().checks.length + 2);
    expect(lines.slice(1, -1).map((line) => JSON.parse(line))).toEqual(state().checks);
  });

  it('read no state from a folder without one, a state of the one-JSON layout (version 1), or one cut short', async () => {
    const out = folder();
    expect(await readBuildState(out)).toBeUndefined();
    mkdirSync(path.join(out, '.garment-press'));
    writeFileSync(path.join(out, STATE_FILE), JSON.stringify({ ...state(), version: 1 }));
    expect(await readBuildState(out)).toBeUndefined();
    await writeBuildState(out, state());
    const lines = readFileSync(path.join(out, STATE_FILE), 'utf8').split('\n');
    writeFileSync(path.join(out, STATE_FILE), `${lines.slice(0, -2).join('\n')}\n`);
    expect(await readBuildState(out)).toBeUndefined();
  });
});
