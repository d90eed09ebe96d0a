import { readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { linkFiles } from '../link-files.ts';
import type { SiteEntry } from '../site/site-index.ts';

/**
 * The files under `garments/` of a built site, relative to it, grouped by garment slug. Read
 * synchronously: tens of thousands of folders are read four times faster so, and nothing else runs yet.
 */
export function listGarmentOutput(siteDir: string): Map<string, string[]> {
  const bySlug = new Map<string, string[]>();
  for (const entry of garmentsFolder(siteDir)) {
    if (!entry.isFile()) continue;
    const file = path.relative(siteDir, path.join(entry.parentPath, entry.name));
    const slug = file.split(path.sep)[1]!;
    const files = bySlug.get(slug);
    if (files) files.push(file);
    else bySlug.set(slug, [file]);
  }
  return bySlug;
}

/**
 * The files of a built site besides its garments' (Astro's pages, the search index, the lists),
 * relative to it, sorted; dot folders (the build's state) left out.
 */
export function listSiteFiles(siteDir: string): string[] {
  const files: string[] = [];
  // The garments' tens of thousands of files are listed once, by listGarmentOutput.
  for (const top of readdirSync(siteDir, { withFileTypes: true })) {
    if (top.name === 'garments' || top.name.startsWith('.')) continue;
    const entries = top.isDirectory() ? readdirSync(path.join(siteDir, top.name), { recursive: true, withFileTypes: true }) : [top];
    for (const entry of entries) if (entry.isFile()) files.push(path.relative(siteDir, path.join(entry.parentPath, entry.name)));
  }
  return files.sort();
}

/** Everything under a site's `garments/`; nothing when it has none. */
function garmentsFolder(siteDir: string): Dirent[] {
  try {
    return readdirSync(path.join(siteDir, 'garments'), { recursive: true, withFileTypes: true });
  } catch {
    return [];
  }
}

/** Garments whose output is incomplete in the previous build (deleted by hand, say), so they must be rendered. */
export function missingOutput(entries: SiteEntry[], previousOutput: Map<string, string[]>): Set<string> {
  const missing = new Set<string>();
  const has = new Map([...previousOutput].map(([slug, files]) => [slug, new Set(files)]));
  for (const { slug, projection } of entries) {
    const files = has.get(slug);
    const expected = ['index.html', `${projection}/index.html`, `${projection}.json`, `${projection}.md`].map((name) =>
      path.join('garments', slug, name),
    );
    if (!files || !expected.every((file) => files.has(file))) missing.add(slug);
  }
  return missing;
}

/** Links the previous build's files of every garment not rendered again into the new build; returns how many. */
export async function carryOver(
  previousOutput: Map<string, string[]>,
  renderedSlugs: Set<string>,
  previousDir: string,
  nextDir: string,
): Promise<number> {
  const files = [...previousOutput].filter(([slug]) => !renderedSlugs.has(slug)).flatMap(([, slugFiles]) => slugFiles);
  await linkFiles(files, previousDir, nextDir);
  return files.length;
}
