import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { displayedPath } from './displayed-path.ts';
import { isSiteChange, type ChangeKind, type WatchedChange } from './watched-change.ts';

/** A folder watched with all its folders, or one file (`astro.config.mjs`), and what a change in it is. */
export interface Watched {
  path: string;
  kind: ChangeKind;
  /** A single file: its folder is watched for it alone. */
  file?: boolean;
}

/**
 * Watches folders (and their folders) and files with the system's file events, no polling, and
 * hands on each change that means something to the site (isSiteChange), named as displayedPath does.
 * A folder that cannot be watched (it does not exist) is said once through `onError`.
 */
export function watchFolders(
  watched: Watched[],
  { cwd, onChange, onError }: { cwd: string; onChange: (change: WatchedChange) => void; onError: (message: string) => void },
): () => void {
  const watchers: FSWatcher[] = [];
  for (const { path: place, kind, file } of watched) {
    const folder = file ? path.dirname(place) : place;
    try {
      const watcher = watch(folder, { recursive: !file }, (_event, name) => {
        if (!name || (file && name !== path.basename(place)) || !isSiteChange(kind, name)) return;
        onChange({ kind, file: displayedPath(path.join(folder, name), cwd) });
      });
      watcher.on('error', (error) => onError(`${displayedPath(folder, cwd)}: ${error.message}; no longer watched`));
      watchers.push(watcher);
    } catch (error) {
      onError(`${displayedPath(folder, cwd)}: ${(error as Error).message}; not watched`);
    }
  }
  return () => {
    for (const watcher of watchers) watcher.close();
  };
}
