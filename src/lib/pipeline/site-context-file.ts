// A build's SiteContext as a file Astro's pages read (site-pages.ts): JSON lines, its other fields and then an
// entry a line, so neither the build nor Astro holds the context as one string (a few hundred thousand records would pass V8's longest).
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseJsonLines, writeJsonLines } from '../json-lines.ts';
import type { SiteEntry } from '../site/site-index.ts';

/** Everything Astro's pages know of a build, handed to them as the module SITE_CONTEXT_MODULE (site-pages.ts). */
export interface SiteContext {
  /** The site's absolute address (also Astro's `site`). */
  site: string;
  /** Every record of the site, as the build checked it. */
  entries: SiteEntry[];
  /** The garments this build renders; null for all (the others' files are carried over). */
  renderedSlugs: string[] | null;
  /** Listing pages (paths) this build does not render, their last build's files being carried over (site-pages-kept.ts). */
  keptPages: string[];
}

/** Where a build's context is written, in the folder private to its Astro run. */
const SITE_CONTEXT_FILE = 'site-context.jsonl';

/**
 * Writes a build's context into the folder private to its Astro run, a line of its fields besides
 * its entries and then a line per entry; returns the file. The Astro process is sent its path, never the records.
 */
export async function writeSiteContext(privateDir: string, context: SiteContext): Promise<string> {
  await mkdir(privateDir, { recursive: true });
  const file = path.join(privateDir, SITE_CONTEXT_FILE);
  const { entries, ...fields } = context;
  await writeJsonLines(
    file,
    (function* () {
      yield fields;
      yield* entries;
    })(),
  );
  return file;
}

/** The context written into `file` by writeSiteContext. */
export function readSiteContext(file: string): SiteContext {
  const lines = parseJsonLines(readFileSync(file));
  return { ...(lines[0] as Omit<SiteContext, 'entries'>), entries: lines.slice(1) as SiteEntry[] };
}
