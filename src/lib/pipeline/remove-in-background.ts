import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';

const REMOVE_FOLDER = "require('node:fs').rmSync(process.argv[1], { recursive: true, force: true })";

/**
 * Removes a folder in a process of its own that outlives this one: a replaced site's tens of
 * thousands of files take seconds to delete, and nothing needs to wait for that. If that process
 * cannot start, this one removes the folder.
 */
export function removeInBackground(folder: string): void {
  const remover = spawn(process.execPath, ['-e', REMOVE_FOLDER, folder], { detached: true, stdio: 'ignore' });
  remover.on('error', () => void rm(folder, { recursive: true, force: true }).catch(() => {}));
  remover.unref();
}
