import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as astroBuild } from 'astro';
import { tmpdir } from 'node:os';
import { checkRecords, type Problem } from '../record/index.ts';
import { indexSite } from '../search/index-site.ts';
import { siteEntryOf, writeSiteIndexFile } from '../site/site-index.ts';

/** Where the build reads and writes, and the address the site is published at. */
export interface BuildOptions {
  recordsDir: string;
  outDir: string;
  site: string;
  /** Called with one line per stage as the build goes. */
  onProgress?: (line: string) => void;
}

/** How a build went: on failure `problems` holds every error, and the output was left as it was. */
export interface BuildResult {
  ok: boolean;
  problems: Problem[];
  /** Seconds per stage. */
  timings: Record<string, number>;
  /** The process's peak resident memory (MiB) at the end of each stage. */
  peakRssMb: Record<string, number>;
  records: number;
}

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Validates every record, builds the site into a staging folder, indexes it for search, then swaps
 * it into place. Any validation error stops the build before Astro runs; a search index failure
 * throws SearchIndexError before the swap; either way the last good output stays untouched.
 */
export async function buildSite({ recordsDir, outDir, site, onProgress = () => {} }: BuildOptions): Promise<BuildResult> {
  const timings: Record<string, number> = {};
  const peakRssMb: Record<string, number> = {};
  const timed = async <T>(stage: string, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      timings[stage] = (performance.now() - start) / 1000;
      peakRssMb[stage] = Math.round(process.resourceUsage().maxRSS / 1024);
    }
  };

  const check = await timed('validate', () => checkRecords([recordsDir], ({ file, record }) => siteEntryOf(record, file)));
  const errors = check.problems.filter((p) => p.severity === 'error');
  onProgress(`validate: ${check.files.length} files, ${check.records.length} valid records, ${errors.length} errors (${timings.validate!.toFixed(1)} s)`);
  if (errors.length > 0) return { ok: false, problems: check.problems, timings, peakRssMb, records: check.records.length };

  const target = path.resolve(outDir);
  const staging = `${target}.staging-${process.pid}`;
  const indexFile = path.join(tmpdir(), `garment-press-index-${process.pid}.json`);
  await rm(staging, { recursive: true, force: true });
  try {
    await writeSiteIndexFile(indexFile, check.records.map((r) => r.summary));
    process.env.GARMENT_PRESS_RECORDS = path.resolve(recordsDir);
    process.env.GARMENT_PRESS_SITE_INDEX = indexFile;
    await timed('render', () => renderSite(staging, site));
    onProgress(`render: ${check.records.length} records into pages and twins (${timings.render!.toFixed(1)} s)`);
    // A failed index throws SearchIndexError before the swap: the last good site stays in place.
    const search = await timed('search index', () => indexSite(staging, { expectedPages: check.records.length }));
    onProgress(`search index: ${search.pages} pages indexed (${timings['search index']!.toFixed(1)} s)`);
    await swapInto(staging, target);
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(indexFile, { force: true });
  }
  return { ok: true, problems: check.problems, timings, peakRssMb, records: check.records.length };
}

/**
 * Runs the Astro build into `staging`. Astro writes its intermediate server build to `.astro/`
 * in the working directory, where two builds at once would overwrite each other, so each build
 * works from a private folder inside the project (its chunks still resolve node_modules).
 */
async function renderSite(staging: string, site: string): Promise<void> {
  const workingDir = process.cwd();
  const privateDir = path.join(projectRoot, '.astro', 'builds', String(process.pid));
  await mkdir(privateDir, { recursive: true });
  process.chdir(privateDir);
  try {
    await astroBuild({ root: projectRoot, outDir: staging, site, logLevel: 'warn' });
  } finally {
    process.chdir(workingDir);
    await rm(privateDir, { recursive: true, force: true });
  }
}

/** Replaces `target` with `staging` so readers see the old site or the new one, never half of one. */
async function swapInto(staging: string, target: string): Promise<void> {
  const previous = `${target}.previous-${process.pid}`;
  const exists = await stat(target).then(() => true, () => false);
  if (exists) await rename(target, previous);
  await rename(staging, target);
  if (exists) await rm(previous, { recursive: true, force: true });
}
