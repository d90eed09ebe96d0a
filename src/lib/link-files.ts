import { execFile } from 'node:child_process';
import { copyFile, link, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Hard-links files (paths relative to both folders) from one folder into another, making the
 * folders they need: an earlier build's files cost no copying. A file system that refuses
 * links gets copies. A few hundred at a time, so tens of thousands go quickly but never hold
 * as many descriptors.
 */
export async function linkFiles(files: string[], fromDir: string, toDir: string): Promise<void> {
  await inBatches(deepestFolders(files.map((file) => path.dirname(path.join(toDir, file)))), (folder) =>
    mkdir(folder, { recursive: true }),
  );
  await inBatches(files, (file) =>
    link(path.join(fromDir, file), path.join(toDir, file)).catch(() => copyFile(path.join(fromDir, file), path.join(toDir, file))),
  );
}

/**
 * Hard-links whole trees (folders or files directly in `parent`, a folder relative to both) from one
 * folder into another, with GNU cp's `-al`, about ten times quicker than linkFiles (a link is one system
 * call to cp, a promise and a trip through Node's thread pool to linkFiles: PERFORMANCE.md, One publish
 * on a big site). Where that cp is missing or cannot link (across file systems), the trees linked so far
 * are removed and `files` (the trees' files, relative to both folders) are linked or copied one by one.
 */
export async function linkTrees(parent: string, trees: string[], files: string[], fromDir: string, toDir: string): Promise<void> {
  if (trees.length === 0) return;
  const into = path.join(toDir, parent);
  await mkdir(into, { recursive: true });
  try {
    // Relative names from the trees' folder: a thousand fit in any system's argument list.
    for (let start = 0; start < trees.length; start += 1000)
      await run('cp', ['-al', '--target-directory', into, '--', ...trees.slice(start, start + 1000)], { cwd: path.join(fromDir, parent) });
  } catch {
    // A copy over a half-made link would write through it into the last build's file: the links go first.
    await inBatches(trees, (tree) => rm(path.join(into, tree), { recursive: true, force: true }));
    await linkFiles(files, fromDir, toDir);
  }
}

/** The listed folders but those another listed folder sits directly in (making the inner one makes them), so all can be made at once. */
function deepestFolders(folders: string[]): string[] {
  const unique = new Set(folders);
  const parents = new Set([...unique].map((folder) => path.dirname(folder)));
  return [...unique].filter((folder) => !parents.has(folder));
}

async function inBatches<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += 256) await Promise.all(items.slice(start, start + 256).map(work));
}
