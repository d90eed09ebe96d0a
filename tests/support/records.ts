import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { GarmentRecord } from '../../src/lib/record/index.ts';

/** The project's root folder. */
export const projectRoot = path.resolve(import.meta.dirname, '../..');

/** The sample records shipped in records/, with their file names. */
export function sampleRecords(): { file: string; record: GarmentRecord }[] {
  return recordsIn('records');
}

/** The records of a folder of the project, with their file names relative to the project. */
function recordsIn(folder: string): { file: string; record: GarmentRecord }[] {
  const dir = path.join(projectRoot, folder);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => ({ file: `${folder}/${name}`, record: JSON.parse(readFileSync(path.join(dir, name), 'utf8')) }));
}

/** The hostile fixture's records (tests/fixtures/hostile), with their file names. */
export function hostileRecords(): { file: string; record: GarmentRecord }[] {
  return recordsIn('tests/fixtures/hostile');
}

/** A deep copy, so a test can break it freely. */
export function copyOf<T>(value: T): T {
  return structuredClone(value);
}

/** The value at a JSON pointer, or undefined. */
export function valueAt(root: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, token) => (node as Record<string, unknown> | undefined)?.[token], root);
}

/** Sets (or with `undefined`, deletes) the value at a JSON pointer whose parent exists. */
export function setAt(root: unknown, pointer: string, value: unknown): void {
  const tokens = pointer.split('/').slice(1);
  const last = tokens.pop()!;
  const parent = valueAt(root, `/${tokens.join('/')}`.replace(/^\/$/, '')) as Record<string, unknown>;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
}
