import path from 'node:path';

/**
 * A file as the developer names it: relative to the working folder when inside it, else absolute.
 * @example displayedPath('/work/site/records/a.json', '/work/site') → 'records/a.json'
 */
export function displayedPath(file: string, cwd: string): string {
  const absolute = path.resolve(cwd, file);
  const relative = path.relative(cwd, absolute);
  return relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative;
}
