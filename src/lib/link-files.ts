import { copyFile, link, mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Hard-links files (paths relative to both folders) from one folder into another, making the
 * folders they need: an earlier build's files cost no copying. A file system that refuses
 * links gets copies. A few hundred at a time, so tens of thousands go quickly but never hold
 * as many descriptors.
 */
export async function linkFiles(files: string[], fromDir: string, toDir: string): Promise<void> {
  for (const folder of new Set(files.map((file) => path.dirname(path.join(toDir, file))))) await mkdir(folder, { recursive: true });
  for (let start = 0; start < files.length; start += 256) {
    await Promise.all(
      files.slice(start, start + 256).map((file) => link(path.join(fromDir, file), path.join(toDir, file)).catch(() => copyFile(path.join(fromDir, file), path.join(toDir, file)))),
    );
  }
}
