import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Whether a folder may be replaced by the tool that leaves `mark` (a path inside it) in the
 * folders it makes: the folder is missing or empty, or holds the mark, so no one else's files are lost.
 */
export async function isReplaceable(folder: string, mark: string): Promise<boolean> {
  const names = await readdir(folder).catch((error: NodeJS.ErrnoException): string[] => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return (
    names.length === 0 ||
    (await stat(path.join(folder, mark)).then(
      () => true,
      () => false,
    ))
  );
}
