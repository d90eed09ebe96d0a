import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GarmentPressError } from '../errors.ts';
import {
  checkRecords,
  namedRecord,
  recordCheckOf,
  recordFileName,
  statRecordFiles,
  type FileCheck,
  type FileStat,
  type Problem,
  type RecordCheck,
} from '../record/index.ts';
import { PAGEFIND_PROCESS } from '../search/index/pagefind-process.ts';
import { SEARCH_BUNDLE_PATH } from '../search/query/search-keys.ts';
import { listsByCategory } from '../site/index-view.ts';
import { siteEntryOf, type SiteEntry } from '../site/site-index.ts';
import { stylesheetOf } from '../site/stylesheet.ts';
import {
  buildFingerprint,
  changedGarments,
  BUILD_STATE_VERSION,
  readBuildState,
  restoredCheck,
  storedChecks,
  writeBuildState,
  type BuildState,
} from './build-state.ts';
import { checkNoAddedFiles, checkOutputFolder, realFolder, type SiteListing } from './output-folder.ts';
import { carryOver, listGarmentOutput, listSiteFiles, missingOutput } from './carry-over.ts';
import { keptListingPages, listingPageDigests, listingPageFile } from './site-pages-kept.ts';
import { linkFiles } from '../link-files.ts';
import { writePrecompressedFiles } from './precompressed-files.ts';
import { jsonPath, markdownPath } from '../site/urls.ts';
import { removeInBackground } from './remove-in-background.ts';
import { ASTRO_PROCESS, startSitePages, type ProcessUsage, type SitePagesProcess } from './site-pages-process.ts';
import {
  UnrenderedRecordsError,
  writeRecordOutputs,
  type CheckedFiles,
  type OutputPlace,
  type PlannedRecord,
  type RecordOutputsSummary,
} from './record-outputs.ts';
import { counted } from '../counted.ts';
import { archiveReplacedRecords, keptHistoryHolds } from '../revisions/archive.ts';
import { recordRevisions } from '../revisions/record-revisions.ts';
import { revisionsSummary } from '../revisions/revision-view.ts';

/** Where the build reads and writes, and the address the site is published at. */
export interface BuildOptions {
  recordsDir: string;
  outDir: string;
  site: string;
  /** Ignore the previous build's output and render everything. */
  fresh?: boolean;
  /** Pages per search index shard aimed at (default SHARD_PAGES, search/index/shard-layout.ts). */
  searchShardPages?: number;
  /** Called with one line per stage as the build goes. */
  onProgress?: (line: string) => void;
  /**
   * Runs the swap of the new site into place, or throws to leave the old one (the publish service's build lease).
   * The swap calls `stillHeld` once the old site is renamed aside and before the new one is renamed in; if it
   * throws, the old site is put back: a guard that lapsed while its process was stopped puts no site in.
   */
  guardSwap?: (swap: (stillHeld: () => Promise<void>) => Promise<void>) => Promise<void>;
}

/** How a build went: on failure `problems` holds every error, and the output was left as it was. */
export interface BuildResult {
  ok: boolean;
  problems: Problem[];
  /** Seconds per stage. */
  timings: Record<string, number>;
  /** The process's peak resident memory (MiB) at the end of each stage, and the Pagefind process's own peak. */
  peakRssMb: Record<string, number>;
  /**
   * CPU seconds (user and system) of the build process, all its threads, with Astro's (`build`), of
   * that the system's (`kernel`: creating files is most of it, and it varies with the file system's state),
   * and of the Astro and Pagefind processes.
   */
  cpuSeconds: Record<string, number>;
  records: number;
  /** Records whose pages and twins were rendered (the others were carried over from the previous build). */
  rendered: number;
}

const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** A records folder without a single record file: a mistyped folder must not replace a site with an empty one. */
export class NoRecordsError extends GarmentPressError {
  constructor(recordsDir: string) {
    super(`${recordsDir}: no record files (*.json) in it or its folders; a site needs at least one record`);
  }
}

/**
 * Validates every record, builds the site into a staging folder, then swaps it into place.
 * Any validation error stops the build before Astro runs; the last good output stays untouched.
 * A first (or fresh) build checks each record in the thread that renders it, from one read, when
 * every file is named after its record (`<slug>.<projection>.json`). When the previous build was
 * made by the same code and settings, unchanged records are not validated again and their
 * garments' output is carried over; when nothing changed, nothing is done.
 */
export async function buildSite({
  recordsDir,
  outDir,
  site,
  fresh = false,
  searchShardPages,
  onProgress = () => {},
  guardSwap = (swap) => swap(async () => {}),
}: BuildOptions): Promise<BuildResult> {
  const { timings, peakRssMb, cpuSeconds, timed, seconds } = stageClock();

  const target = await realFolder(outDir);
  const recordsRoot = path.resolve(recordsDir);
  await checkOutputFolder(target, { records: await realFolder(recordsDir) });
  const fingerprint = await buildFingerprint(projectRoot, { site, records: recordsRoot, searchShardPages: String(searchShardPages ?? '') });
  const last = await readBuildState(target);
  const listing = last && listSite(target);
  if (last) checkNoAddedFiles(target, last, listing!);
  // Before anything is read: a record replacing one readers have seen keeps that one as a revision.
  if (last) await archiveReplacedRecords({ recordsDir: recordsRoot, siteDir: target, checks: last.checks });
  const previous = fresh ? undefined : last;
  const reusable = previous?.fingerprint === fingerprint && hasSiteFiles(previous, listing!.siteFiles, onProgress) ? previous : undefined;
  const planned = reusable ? undefined : plannedRecords(await statRecordFiles([recordsDir]));
  if (planned?.length === 0) throw new NoRecordsError(recordsDir);

  const staging = buildFolder(target, 'staging');
  // Each build its own, even in one process: Astro imports the server build it makes there, and a module once imported is not read again.
  const astroDir = path.join(ASTRO_BUILDS, `${process.pid}-${randomUUID()}`);
  const emptyStaging = async () => {
    await rm(staging, { recursive: true, force: true });
    await mkdir(path.dirname(staging), { recursive: true });
    // Not recursive: Node's recursive mkdir says ENOENT where the file system said, say, EROFS.
    await mkdir(staging);
  };
  const stylesheet = stylesheetOf(await readFile(path.join(projectRoot, 'src/styles/global.css'), 'utf8'));
  const outputPlace = {
    siteDir: staging,
    site,
    recordsDir: recordsRoot,
    stylesheet: stylesheet.path,
    ...(searchShardPages ? { shardPages: searchShardPages } : {}),
  };
  const progress = (indexed: number, total: number) => onProgress(`pages, twins and search index: ${indexed} of ${total} records`);
  const stop = new AbortController();
  let outputs: Promise<SettledOutputs> | undefined;
  let carried: Promise<number> | undefined;
  let check: RecordCheck<SiteEntry> | undefined;
  // Started once the build knows it has something to render, so Astro loads while the records are read.
  let sitePages: SitePagesProcess | undefined;
  const startAstro = () => (sitePages ??= startSitePages());
  let astroUsage: ProcessUsage | undefined;
  const result = (ok: boolean, rendered: number): BuildResult => {
    Object.assign(cpuSeconds, buildCpuSeconds(astroUsage));
    return { ok, problems: check?.problems ?? [], timings, peakRssMb, cpuSeconds, records: check?.records.length ?? 0, rendered };
  };
  const reportCheck = (how: string) => {
    const errors = check!.problems.filter((p) => p.severity === 'error').length;
    onProgress(
      `validate: ${check!.files.length} files (${check!.files.length - check!.checked} unchanged since the last build), ${check!.records.length} valid records, ${errors} errors (${how})`,
    );
    return errors === 0;
  };
  try {
    if (planned) {
      startAstro();
      // Records are checked as the threads read them to render; the index and Astro need every check first.
      await emptyStaging();
      let checked: CheckedFiles;
      ({ outputs, checked } = await checkInThreads(planned, outputPlace, progress, stop.signal));
      check = recordCheckOf(checked.files, checked.files.length);
      timings.validate = checked.seconds;
      peakRssMb.validate = peakRss();
      if (!reportCheck(`in the record threads, ${seconds('validate')}`)) return result(false, 0);
      if (!checked.renderable) {
        // A record is not the one its file is named after: render again from the checks, as a rebuild would.
        onProgress(`render again: ${misnamedFile(checked.files)}`);
        await outputs;
        outputs = undefined;
      }
    } else {
      check = await timed('validate', () => checkAgain(recordsDir, reusable?.checks ?? []));
      if (check.files.length === 0) throw new NoRecordsError(recordsDir);
      if (!reportCheck(seconds('validate'))) return result(false, 0);
    }

    const entries = check.records.map((record) => record.summary);
    const previousOutput = reusable ? listing!.garmentFiles : new Map<string, string[]>();
    const checks = storedChecks(check.checks, recordsRoot);
    const renderedSlugs = reusable ? changedGarments(reusable.checks, checks) : null;
    for (const slug of renderedSlugs ? missingOutput(entries, previousOutput) : []) renderedSlugs!.add(slug);
    if (renderedSlugs?.size === 0) {
      onProgress(`nothing changed since the last build: ${outDir}/ is up to date`);
      for (const folder of await leftByStoppedBuilds(target)) removeInBackground(folder);
      return result(true, 0);
    }
    startAstro();
    const listingPages = listingPageDigests(entries);
    // Category pages whose garments and order are the last build's are carried over with the garments, not rendered.
    const keptPages = reusable ? keptListingPages(listingPages, reusable.listingPages, listing!.siteFiles) : [];
    const rendering = renderedSlugs ? entries.filter((entry) => renderedSlugs.has(entry.slug)) : entries;
    if (!outputs) {
      await emptyStaging();
      // Record pages and twins are made in threads of their own, one read of each record each, while
      // Astro renders the rest of the site in its process; the search index is fed here as their pages come.
      // Unchanged garments' pages are indexed again from the last index instead of reading their records.
      outputs = settled(
        writeRecordOutputs(
          {
            ...outputPlace,
            entries,
            checkedFiles: new Map(check.checks.map((fileCheck) => [path.resolve(fileCheck.file), fileCheck])),
            renderedSlugs: renderedSlugs && [...renderedSlugs],
            ...(renderedSlugs ? { previous: { bundleDir: path.join(target, SEARCH_BUNDLE_PATH), changedSlugs: renderedSlugs } } : {}),
          },
          progress,
          stop.signal,
        ),
      );
      // Unchanged garments' files are linked meanwhile: that is the file system's work, Astro's is its process's.
      carried = renderedSlugs
        ? timed('carry over', async () => {
            const pageFiles = keptPages.map(listingPageFile);
            const [garmentFiles] = await Promise.all([
              carryOver(previousOutput, renderedSlugs, target, staging),
              linkFiles(pageFiles, target, staging),
            ]);
            return garmentFiles + pageFiles.length;
          })
        : undefined;
      carried?.catch(() => {});
    }
    const context = { site, entries, renderedSlugs: renderedSlugs && [...renderedSlugs], keptPages };
    astroUsage = await timed('site pages', () => startAstro().render({ context, projectRoot, outDir: staging, privateDir: astroDir }));
    peakRssMb[ASTRO_PROCESS] = astroUsage.peakRssMb;
    cpuSeconds[ASTRO_PROCESS] = astroUsage.cpuSeconds;
    const pagesKept = keptPages.length > 0 ? `, ${keptPages.length} of ${Object.keys(listingPages).length} category pages kept` : '';
    onProgress(`site pages: ${sitePagesOf(entries)} for ${entries.length} records${pagesKept} (${seconds('site pages')})`);
    if (carried) {
      const kept = await carried;
      onProgress(
        `carry over: ${entries.length - rendering.length} unchanged records and ${counted(keptPages.length, 'category page')}, ${kept} files linked from the last build (${seconds('carry over')})`,
      );
    }
    // A failed index, page or twin throws before the swap: the last good site stays in place.
    const done = await outputs;
    if ('error' in done) throw done.error;
    const { pages, search } = done.summary;
    timings.render = pages.seconds;
    timings['search index'] = done.seconds;
    peakRssMb.render = peakRssMb['search index'] = peakRss();
    if (search.pagefind.peakRssMb !== undefined) peakRssMb[PAGEFIND_PROCESS] = search.pagefind.peakRssMb;
    if (search.pagefind.cpuSeconds !== undefined) cpuSeconds[PAGEFIND_PROCESS] = search.pagefind.cpuSeconds;
    reportOutputs(done.summary, seconds, onProgress);
    // The twins by their records, not by listing the site's hundreds of thousands of files.
    const twins = entries.flatMap(({ slug, projection }) =>
      [jsonPath(slug, projection), markdownPath(slug, projection)].map((at) => at.slice(1)),
    );
    await timed('precompress', () => writePrecompressedFiles(staging, twins));
    await writeBuildState(staging, { version: BUILD_STATE_VERSION, fingerprint, checks, siteFiles: listSiteFiles(staging), listingPages });
    await guardSwap((stillHeld) => swapInto(staging, target, stillHeld));
    return result(true, rendering.length);
  } finally {
    // A failed render must not leave the threads writing, or files being linked, into the staging folder being removed.
    stop.abort();
    sitePages?.stop();
    await outputs;
    await carried?.catch(() => {});
    await rm(staging, { recursive: true, force: true });
    await rm(astroDir, { recursive: true, force: true });
  }
}

/** Checks every record file, taking the last build's check of a file whose size and time have not changed. */
function checkAgain(recordsDir: string, stored: FileCheck<SiteEntry>[]): Promise<RecordCheck<SiteEntry>> {
  const recordsRoot = path.resolve(recordsDir);
  const storedByFile = new Map(stored.map((check) => [check.file, check]));
  return checkRecords([recordsDir], {
    summarize: ({ file, record }) => siteEntryOf(record, file, revisionsSummary(recordRevisions(recordsRoot, record, readFileSync(file)))),
    reuse: (file, size, mtimeMs) => {
      const kept = storedByFile.get(path.relative(recordsRoot, path.resolve(file)));
      return kept && kept.size === size && kept.mtimeMs === mtimeMs && keptHistoryHolds(recordsRoot, kept.record?.summary)
        ? restoredCheck(kept, file, recordsRoot)
        : undefined;
    },
  });
}

/** Which of Astro's pages a site has, in words. */
function sitePagesOf(entries: SiteEntry[]): string {
  return listsByCategory(new Set(entries.map((entry) => entry.slug)).size)
    ? 'home, category, search and documentation pages'
    : 'home, search and documentation pages';
}

/** The build's own CPU time, as before Astro had a process of its own: this process's and Astro's (`build`), and of it the kernel's. */
function buildCpuSeconds(astro: ProcessUsage | undefined): { build: number; kernel: number } {
  const { userCPUTime, systemCPUTime } = process.resourceUsage();
  return {
    build: (userCPUTime + systemCPUTime) / 1e6 + (astro?.cpuSeconds ?? 0),
    kernel: systemCPUTime / 1e6 + (astro?.kernelSeconds ?? 0),
  };
}

/** Seconds, peak memory and CPU time per stage of a build, and how to time a stage. */
function stageClock() {
  const timings: Record<string, number> = {};
  const peakRssMb: Record<string, number> = {};
  const cpuSeconds: Record<string, number> = {};
  const timed = async <T>(stage: string, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      timings[stage] = (performance.now() - start) / 1000;
      peakRssMb[stage] = peakRss();
    }
  };
  const seconds = (stage: string) => `${timings[stage]!.toFixed(1)} s`;
  return { timings, peakRssMb, cpuSeconds, timed, seconds };
}

/** Starts a first build's record threads, which check each record as they read it to render it, and waits for every check. */
async function checkInThreads(
  planned: PlannedRecord[],
  outputPlace: OutputPlace,
  progress: (indexed: number, total: number) => void,
  signal: AbortSignal,
): Promise<{ outputs: Promise<SettledOutputs>; checked: CheckedFiles }> {
  let allChecked: (checks: CheckedFiles) => void = () => {};
  const checksIn = new Promise<CheckedFiles>((resolve) => (allChecked = resolve));
  const outputs = settled(writeRecordOutputs({ ...outputPlace, unchecked: planned, onChecked: allChecked }, progress, signal));
  const first = await Promise.race([checksIn, outputs]);
  const checked =
    'files' in first
      ? first
      : 'summary' in first
        ? first.summary.checks
        : first.error instanceof UnrenderedRecordsError
          ? first.error.checks
          : undefined;
  if (!checked) throw (first as { error: unknown }).error;
  return { outputs, checked };
}

/** Says what the record threads made: pages and twins, and the search index. */
function reportOutputs(
  { pages, search }: RecordOutputsSummary,
  seconds: (stage: string) => string,
  onProgress: (line: string) => void,
): void {
  onProgress(
    `render: ${pages.records} records into pages, JSON and Markdown in ${counted(pages.threads, 'thread')} (${seconds('render')})`,
  );
  onProgress(
    `search index: ${counted(search.garments, 'garment')} (${search.pages} records) in ${counted(search.shards, 'shard')}, ${search.built} built, ${search.reused} records reused (${seconds('search index')})`,
  );
}

/** How the record threads' work ended, and the seconds it took. Settled at once, so a failure cannot go unhandled while Astro still renders. */
type SettledOutputs = { summary: RecordOutputsSummary; seconds: number } | { error: unknown };

function settled(work: Promise<RecordOutputsSummary>): Promise<SettledOutputs> {
  const started = performance.now();
  return work.then(
    (summary) => ({ summary, seconds: (performance.now() - started) / 1000 }),
    (error: unknown) => ({ error }),
  );
}

/** What a built site holds, listed once: to find files added to it, and what of it a rebuild keeps. */
function listSite(siteDir: string): SiteListing {
  return { topNames: readdirSync(siteDir), siteFiles: listSiteFiles(siteDir), garmentFiles: listGarmentOutput(siteDir) };
}

/**
 * Whether every file the last build left besides its garments' is still there. Garments' files are
 * checked one garment at a time (missingOutput); a site page or search file deleted by hand means
 * the site is built again in full, which says so.
 */
function hasSiteFiles(state: BuildState, siteFiles: string[], onProgress: (line: string) => void): boolean {
  const present = new Set(siteFiles);
  const lost = (state.siteFiles ?? []).filter((file) => !present.has(file));
  if (lost.length > 0)
    onProgress(
      `the last build's output lacks ${counted(lost.length, 'file')} (${lost[0]}${lost.length > 1 ? ', …' : ''}): building everything`,
    );
  return lost.length === 0;
}

/**
 * The record files with the slug and projection each one's name gives, so the threads can check
 * and render them from one read; undefined when a name does not follow `<slug>.<projection>.json`
 * or two give the same record.
 */
function plannedRecords(files: FileStat[]): PlannedRecord[] | undefined {
  const planned: PlannedRecord[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const named = namedRecord(file.file);
    if (!named || seen.has(`${named.slug}/${named.projection}`)) return undefined;
    seen.add(`${named.slug}/${named.projection}`);
    planned.push({ ...file, ...named });
  }
  return planned;
}

/** Which file made a build of valid records render again: the first whose record is not the one its name says. */
function misnamedFile(files: FileCheck<SiteEntry>[]): string {
  const { file, name } = files
    .map(({ file, record }) => ({ file, name: record && recordFileName(record.slug, record.projection) }))
    .find(({ file, name }) => name && path.basename(file) !== name)!;
  return `${file} holds another record than its name says; named ${name}, it would render in one read`;
}

/** This process's peak resident memory so far, MiB (its threads included, its child processes not). */
function peakRss(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/**
 * Replaces `target` with `staging` so readers see the old site or the new one, never half of one.
 * The old site is removed in the background, the new one being in place already, and so is what
 * builds stopped before they could clean up left (see leftByStoppedBuilds).
 */
async function swapInto(staging: string, target: string, stillHeld: () => Promise<void>): Promise<void> {
  const previous = buildFolder(target, 'previous');
  const exists = await stat(target).then(
    () => true,
    () => false,
  );
  if (exists) await rename(target, previous);
  try {
    await stillHeld();
  } catch (error) {
    // Back where it was, unless a newer site went in meanwhile (a folder is never renamed over a full one).
    if (exists) await rename(previous, target).catch(() => {});
    throw error;
  }
  await rename(staging, target);
  for (const folder of [...(exists ? [previous] : []), ...(await leftByStoppedBuilds(target))]) removeInBackground(folder);
}

/** A folder beside `target` that this build works in: the site it builds, or the site it replaced. */
function buildFolder(target: string, kind: 'staging' | 'previous'): string {
  return `${target}.${kind}-${process.pid}`;
}

/**
 * What builds no longer running left, each named after its process: their folders beside `target`
 * (see buildFolder), their Astro folders in the project and, from builds before the site context
 * (site-pages.ts), their index files in the temporary folder.
 */
async function leftByStoppedBuilds(target: string): Promise<string[]> {
  const found = await Promise.all([
    namedAfterStoppedBuilds(path.dirname(target), `${path.basename(target)}.`, /^(?:staging|previous)-(\d+)$/),
    namedAfterStoppedBuilds(ASTRO_BUILDS, '', /^(\d+)(?:-[0-9a-f-]+)?$/),
    namedAfterStoppedBuilds(tmpdir(), 'garment-press-index-', /^(\d+)\.json$/),
  ]);
  return found.flat();
}

/** The entries of `folder` named `prefix` then what `rest` matches, its group being a process no longer running. */
async function namedAfterStoppedBuilds(folder: string, prefix: string, rest: RegExp): Promise<string[]> {
  const names = await readdir(folder).catch(() => []);
  return names
    .filter((name) => {
      const pid = name.startsWith(prefix) ? rest.exec(name.slice(prefix.length))?.[1] : undefined;
      return pid !== undefined && !isRunning(Number(pid));
    })
    .map((name) => path.join(folder, name));
}

/** Where each build's Astro run keeps its server build, in a folder named after the build's process and the build. */
const ASTRO_BUILDS = path.join(projectRoot, '.astro', 'builds');

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
