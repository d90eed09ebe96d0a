import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { precompressedCopies } from './precompressed-files.ts';
import { GarmentPressError } from '../errors.ts';
import { isReplaceable } from '../replaceable-folder.ts';
import { garmentFeedPaths } from '../revisions/feeds.ts';
import { STATE_FILE, type BuildState } from './build-state.ts';
import { isPageTableName } from '../site/table-csv.ts';

/** The output folder given would replace something that is not a site this tool built. */
export class OutputFolderError extends GarmentPressError {}

/**
 * A folder's absolute path with links resolved (its parent's, when it does not exist yet): a build
 * replaces the folder an `--out` link leads to, not the link, and tells folders apart by what they are.
 */
export async function realFolder(dir: string): Promise<string> {
  const absolute = path.resolve(dir);
  const real = await realpath(absolute).catch(() => undefined);
  if (real) return real;
  const parent = await realpath(path.dirname(absolute)).catch(() => undefined);
  return parent ? path.join(parent, path.basename(absolute)) : absolute;
}

/**
 * Refuses an output folder whose replacement would lose data: one holding or inside a folder to
 * keep (`keep`, by what it holds: the records, the publish service's data), or an existing
 * folder with files but no build state, which no build of this tool made.
 */
export async function checkOutputFolder(outDir: string, keep: Record<string, string>): Promise<void> {
  const target = path.resolve(outDir);
  const within = (inner: string, outer: string) => {
    const relative = path.relative(outer, inner);
    return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
  };
  for (const [holds, folder] of Object.entries(keep).map(([name, dir]) => [name, path.resolve(dir)] as const)) {
    if (within(folder, target))
      throw new OutputFolderError(
        `the output folder ${target} holds the ${holds} (${folder}), and a build replaces its output folder: choose another`,
      );
    if (within(target, folder))
      throw new OutputFolderError(`the output folder ${target} is inside the ${holds} folder ${folder}: choose one outside it`);
  }
  if (!(await isReplaceable(target, STATE_FILE))) {
    throw new OutputFolderError(
      `the output folder ${target} holds files that no build made (it has no ${STATE_FILE}), and a build replaces its output folder: choose a new or empty folder`,
    );
  }
}

/** What a built site holds, as listed before it is replaced. */
export interface SiteListing {
  /** Its top-level names, dot files and folders included. */
  topNames: string[];
  /** Its files besides its garments' (listSiteFiles). */
  siteFiles: string[];
  /** Its garments' files, by slug (listGarmentOutput). */
  garmentFiles: Map<string, string[]>;
}

/**
 * Refuses to replace a built site to which files were added since its build (a CNAME, a
 * `.well-known/` file): a build replaces the whole folder, and they would be lost without a word.
 */
export function checkNoAddedFiles(outDir: string, state: BuildState, listing: SiteListing): void {
  const added = addedFiles(state, listing);
  if (added.length === 0) return;
  const named = `${added.slice(0, 3).join(', ')}${added.length > 3 ? ', …' : ''}`;
  throw new OutputFolderError(
    `the output folder ${path.resolve(outDir)} holds ${added.length === 1 ? 'a file' : `${added.length} files`} no build made (${named}), and a build replaces its output folder: move ${added.length === 1 ? 'it' : 'them'} out first, or choose another folder`,
  );
}

/** The files of a built site that its build did not make, by path relative to it. */
export function addedFiles(state: BuildState, { topNames, siteFiles, garmentFiles }: SiteListing): string[] {
  // A state written before builds listed their site files cannot tell.
  if (state.siteFiles === undefined) return [];
  const made = new Set(state.siteFiles);
  // A record's tables' CSVs, named as the build names them, beside its page.
  const tables = new Set<string>();
  const revisionFolders = new Set<string>();
  for (const { record } of state.checks) {
    if (!record) continue;
    for (const name of ['index.html', `${record.projection}/index.html`, `${record.projection}.json`, `${record.projection}.md`]) {
      made.add(path.join('garments', record.slug, name));
      for (const copy of precompressedCopies(name)) made.add(path.join('garments', record.slug, copy));
    }
    tables.add(path.join('garments', record.slug, record.projection));
    revisionFolders.add(path.join('garments', record.slug, record.projection, 'revisions'));
    for (const feed of Object.values(garmentFeedPaths(record.slug))) made.add(feed.slice(1));
  }
  // A record's revision files are as many as its revisions: any file of its revisions folder is the build's.
  const isMade = (file: string) =>
    made.has(file) ||
    (file.endsWith('.csv') && tables.has(path.dirname(file)) && isPageTableName(path.basename(file, '.csv'))) ||
    [...parentFolders(file)].some((folder) => revisionFolders.has(folder));
  const stateFolder = STATE_FILE.split(path.sep)[0];
  return [
    ...topNames.filter((name) => name.startsWith('.') && name !== stateFolder),
    ...siteFiles.filter((file) => !made.has(file)),
    ...[...garmentFiles.values()].flat().filter((file) => !isMade(file)),
  ];
}

/** The folders a relative path lies in, innermost first. */
function* parentFolders(file: string): Generator<string> {
  for (let folder = path.dirname(file); folder !== '.'; folder = path.dirname(folder)) yield folder;
}
