import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseJsonLines, writeJsonLines } from '../json-lines.ts';
import type { FileCheck } from '../record/index.ts';
import type { SiteEntry } from '../site/site-index.ts';

/** What a finished build leaves in its output so the next build knows what it may keep. */
export interface BuildState {
  /** BUILD_STATE_VERSION: a state of another version is read as none, and the build is a full one. */
  version: typeof BUILD_STATE_VERSION;
  /** Hash of everything besides the records that shapes the output: code, dependencies, site address, records folder. */
  fingerprint: string;
  /** Each record file's check, its path relative to the records folder. */
  checks: FileCheck<SiteEntry>[];
  /** The site's files besides its garments', relative to it (listSiteFiles): a rebuild keeps them only while all are there. */
  siteFiles: string[];
  /** Its listing pages' digests by path (site-pages-kept.ts): a rebuild keeps the pages whose digest is the same. */
  listingPages?: Record<string, string>;
}

/** The version of the state's layout. 2: JSON lines, a line per file check (1 was one JSON text, past V8's longest string at some 424,000 records). */
export const BUILD_STATE_VERSION = 2;

/** Where a build keeps its state: a dot folder the site's own server never serves. */
export const STATE_FILE = path.join('.garment-press', 'build-state.json');

/**
 * A hash of the code (src/ and public/), dependencies and settings a build's output depends on: when it changes,
 * nothing of the previous output may be kept.
 */
export async function buildFingerprint(projectRoot: string, settings: Record<string, string>): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify({ node: process.version, settings }));
  // public/ too: Astro copies it into every site, and a rebuild with no record changed would keep the old copy.
  const sources = (
    await Promise.all(
      ['src', 'public'].map((folder) => readdir(path.join(projectRoot, folder), { recursive: true, withFileTypes: true }).catch(() => [])),
    )
  )
    .flat()
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
  const settingsFiles = ['astro.config.mjs', 'package-lock.json', 'tsconfig.json'].map((name) => path.join(projectRoot, name));
  for (const file of [...sources, ...settingsFiles]) {
    hash
      .update(path.relative(projectRoot, file))
      .update('\0')
      .update(await readFile(file).catch(() => Buffer.alloc(0)));
  }
  return hash.digest('hex');
}

/** The state the build in `outDir` left, or undefined when there is none, it cannot be read, or it is of another version. */
export async function readBuildState(outDir: string): Promise<BuildState | undefined> {
  try {
    const lines = parseJsonLines(await readFile(path.join(outDir, STATE_FILE)));
    const { checkCount, ...state } = lines[0] as StateHead;
    const checks = lines.slice(1) as FileCheck<SiteEntry>[];
    // A state cut short at a line's end would pass for one with fewer records.
    return state.version === BUILD_STATE_VERSION && checkCount === checks.length ? { ...state, checks } : undefined;
  } catch {
    return undefined;
  }
}

/** The first line of the state file: the state besides its checks, and how many lines of checks follow. */
type StateHead = Omit<BuildState, 'checks'> & { checkCount: number };

/** Writes a build's state into its output folder: a line of its fields, then a line per file check (JSON lines). */
export async function writeBuildState(outDir: string, state: BuildState): Promise<void> {
  const file = path.join(outDir, STATE_FILE);
  await mkdir(path.dirname(file), { recursive: true });
  const { checks, ...fields } = state;
  const head: StateHead = { ...fields, checkCount: checks.length };
  await writeJsonLines(
    file,
    (function* () {
      yield head;
      yield* checks;
    })(),
  );
}

/** The file checks as stored: paths relative to the records folder, so the state holds no machine paths. */
export function storedChecks(checks: FileCheck<SiteEntry>[], recordsDir: string): FileCheck<SiteEntry>[] {
  return checks.map((check) => {
    const relative = path.relative(recordsDir, path.resolve(check.file));
    return withFile(check, relative, relative);
  });
}

/** A stored check as the current build names its file (`file` as displayed; the entry keeps an absolute path). */
export function restoredCheck(stored: FileCheck<SiteEntry>, file: string, recordsDir: string): FileCheck<SiteEntry> {
  return withFile(stored, file, path.resolve(recordsDir, stored.file));
}

function withFile(check: FileCheck<SiteEntry>, file: string, entryFile: string): FileCheck<SiteEntry> {
  return {
    ...check,
    file,
    problems: check.problems.map((problem) => ({ ...problem, file })),
    record: check.record && { ...check.record, file, summary: { ...check.record.summary, file: entryFile } },
  };
}

/**
 * The garments whose output must be made again: those with a record added, removed or changed
 * (by size or modification time, or by the revisions its archive keeps) since the previous build, comparing stored checks. Both
 * projections of a garment go together, since each page links the other.
 */
export function changedGarments(previous: FileCheck<SiteEntry>[], current: FileCheck<SiteEntry>[]): Set<string> {
  const signatures = (checks: FileCheck<SiteEntry>[]) => {
    const bySlug = new Map<string, string[]>();
    for (const { record, size, mtimeMs } of checks) {
      const signature = `${record?.file}|${record?.projection}|${size}|${mtimeMs}|${record?.summary.revisions.kept}`;
      if (record) bySlug.set(record.slug, [...(bySlug.get(record.slug) ?? []), signature]);
    }
    return new Map([...bySlug].map(([slug, parts]) => [slug, parts.sort().join('\n')]));
  };
  const before = signatures(previous);
  const after = signatures(current);
  return new Set([...new Set([...before.keys(), ...after.keys()])].filter((slug) => before.get(slug) !== after.get(slug)));
}
