import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Every file under a folder with its size and modification time: equal fingerprints, unchanged folder. */
export function fingerprint(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      const info = statSync(file);
      return `${path.relative(dir, file)} ${info.size} ${info.mtimeMs}`;
    })
    .sort();
}
