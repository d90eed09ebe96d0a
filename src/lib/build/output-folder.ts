import path from 'node:path';
import { GarmentPressError } from '../errors.ts';
import { isReplaceable } from '../replaceable-folder.ts';
import { STATE_FILE } from './build-state.ts';

/** The output folder given would replace something that is not a site this tool built. */
export class OutputFolderError extends GarmentPressError {}

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
    if (within(folder, target)) throw new OutputFolderError(`the output folder ${target} holds the ${holds} (${folder}), and a build replaces its output folder: choose another`);
    if (within(target, folder)) throw new OutputFolderError(`the output folder ${target} is inside the ${holds} folder ${folder}: choose one outside it`);
  }
  if (!(await isReplaceable(target, STATE_FILE))) {
    throw new OutputFolderError(`the output folder ${target} holds files that no build made (it has no ${STATE_FILE}), and a build replaces its output folder: choose a new or empty folder`);
  }
}
