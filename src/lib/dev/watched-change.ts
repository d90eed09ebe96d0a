import { counted } from '../counted.ts';

/** What a changed file is to the development loop: a record, the site's code (`src/`, `astro.config.mjs`), or a file of `public/`. */
export type ChangeKind = 'record' | 'code' | 'public';

/** A file that changed, as the person editing it names it (`records/tee.svc.json`). */
export interface WatchedChange {
  kind: ChangeKind;
  file: string;
}

/**
 * Whether a file event in a watched folder (`name` relative to it) means a change to the site: not
 * under a dot name (the `.revisions/` archive a build keeps in the records folder, editors' swap
 * files), not an editor's backup or probe file, and in the records folder only a record (`*.json`).
 * @example isSiteChange('record', '.revisions/tee.svc/1.json') → false
 */
export function isSiteChange(kind: ChangeKind, name: string): boolean {
  const names = name.split(/[/\\]/);
  const last = names.at(-1) ?? '';
  if (names.some((part) => part.startsWith('.')) || last.endsWith('~') || /^\d+$/.test(last)) return false;
  return kind !== 'record' || last.endsWith('.json');
}

/**
 * What a rebuild for these changes costs, in a line for the terminal. Every rebuild is a build
 * process of its own, so a change of code is always built with the code as it now is; since the
 * code is part of what a build keeps from the last one (its fingerprint), a change of code or of
 * `public/` renders every page again, while a change of records renders only their garments.
 * @example rebuildLine([{ kind: 'record', file: 'records/tee.svc.json' }]) → 'records/tee.svc.json changed: rendering its garment again'
 */
export function rebuildLine(changes: WatchedChange[]): string {
  const files = [...new Set(changes.map((change) => change.file))];
  const named = files.length === 1 ? files[0]! : `${counted(files.length, 'file')} (${files[0]}, …)`;
  const renderedAll = changes.find((change) => change.kind !== 'record');
  if (!renderedAll) return `${named} changed: rendering ${files.length === 1 ? 'its garment' : 'their garments'} again`;
  const why = renderedAll.kind === 'code' ? 'the code changed' : 'public/ changed';
  return `${named} changed: ${why}, so every page is rendered again`;
}
