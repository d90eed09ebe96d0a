import { copyFile, link, mkdir } from 'node:fs/promises';
import path from 'node:path';

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

/** The listed folders but those another listed folder sits directly in (making the inner one makes them), so all can be made at once. */
function deepestFolders(folders: string[]): string[] {
  const unique = new Set(folders);
  const parents = new Set([...unique].map((folder) => path.dirname(folder)));
  return [...unique].filter((folder) => !parents.has(folder));
}

async function inBatches<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += 256) await Promise.all(items.slice(start, start + 256).map(work));
}
