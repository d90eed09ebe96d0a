import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { GarmentPressError } from '../errors.ts';
import { checkFileBytes, type CheckedRecord, type FileCheck, type FileStat, unreadableFileCheck } from './check-record.ts';
import { REVISIONS_FOLDER } from './file-names.ts';
import { checkSiteIntegrity, type RecordFile } from './integrity.ts';
import type { Problem } from './problem.ts';

/** A path given to check that is neither a file nor a folder. */
export class MissingPathError extends GarmentPressError {}

/** How to check a set of records. */
export interface CheckOptions<Summary> {
  /** What to keep of each valid record (ten thousand whole records would not fit in memory). */
  summarize?: (record: RecordFile) => Summary;
  /** A previous check of a file that still has this size and modification time, used instead of reading it again. */
  reuse?: (file: string, size: number, mtimeMs: number) => FileCheck<Summary> | undefined;
}

/** What checking a set of record files found. */
export interface RecordCheck<Summary = undefined> {
  /** Every file looked at, as displayed in problems. */
  files: string[];
  /** The files that hold a valid record (schema and integrity errors excluded). */
  records: CheckedRecord<Summary>[];
  /** Every error and warning, in file order. */
  problems: Problem[];
  /** Each file's own check, in file order, for reuse by a later check. */
  checks: FileCheck<Summary>[];
  /** How many files were read and checked (the others were reused). */
  checked: number;
}

/**
 * Lists the `.json` files under the given files and folders (folders recursively, links to files
 * included, links to folders, pipes and devices not; a folder's revisions archive, `.revisions/`, is
 * no records), sorted. A link to nothing is listed too, so that reading it is that file's problem,
 * rather than its record dropping out of the site without a word.
 */
export async function listRecordFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const given of paths) {
    const info = await stat(given).catch(() => undefined);
    if (!info) throw new MissingPathError(`${given}: no such file or folder`);
    if (!info.isFile() && !info.isDirectory()) throw new MissingPathError(`${given}: not a file or folder`);
    if (info.isFile()) {
      files.push(given);
      continue;
    }
    const entries = await readdir(given, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (!entry.name.endsWith('.json')) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (path.relative(given, file).split(path.sep).includes(REVISIONS_FOLDER)) continue;
      // A link to a file counts as that file; links to folders are not followed, since they could loop, nor
      // links to a pipe or a device (/dev/zero), which reading would wait on or never finish.
      if (entry.isFile() || (entry.isSymbolicLink() && ((await stat(file).catch(() => undefined))?.isFile() ?? true))) files.push(file);
    }
  }
  return [...new Set(files)].sort();
}

/** Reads one file and checks it (checkFileBytes), keeping what `summarize` chooses of its record; a file it cannot read is that file's problem. */
async function checkFile<Summary>(stat: FileStat, summarize: (record: RecordFile) => Summary): Promise<FileCheck<Summary>> {
  const bytes = await readFile(stat.file).catch((error: unknown) => error as Error);
  return bytes instanceof Error ? unreadableFileCheck(stat, bytes) : checkFileBytes(stat, bytes, summarize).check;
}

/**
 * The record files under the given paths (see listRecordFiles), each with its size and modification
 * time; -1 for both where there is nothing to look at (a link to nothing), whose read then fails as that file's problem.
 */
export async function statRecordFiles(paths: string[]): Promise<FileStat[]> {
  return mapInBatches(await listRecordFiles(paths), 256, async (file): Promise<FileStat> => {
    const info = await stat(file).catch(() => undefined);
    return { file, size: info?.size ?? -1, mtimeMs: info?.mtimeMs ?? -1 };
  });
}

/**
 * Checks every record under the given paths, and the set as a whole.
 * Expected failures (bad JSON, schema, integrity) are problems, never throws.
 */
export async function checkRecords<Summary = undefined>(
  paths: string[],
  options: CheckOptions<Summary> = {},
): Promise<RecordCheck<Summary>> {
  const { summarize = () => undefined as Summary, reuse } = options;
  const stats = await statRecordFiles(paths);
  const reused = new Map<string, FileCheck<Summary>>();
  for (const { file, size, mtimeMs } of stats) {
    const previous = reuse?.(file, size, mtimeMs);
    if (previous) reused.set(file, previous);
  }
  const toCheck = stats.filter(({ file }) => !reused.has(file));
  const fresh = await mapInBatches(toCheck, 64, (file) => checkFile(file, summarize));
  return recordCheckOf([...reused.values(), ...fresh], stats.length - reused.size);
}

/** What a set of file checks found, the set as a whole checked too (one file per slug and projection). */
export function recordCheckOf<Summary>(fileChecks: FileCheck<Summary>[], checked: number): RecordCheck<Summary> {
  const checks = [...fileChecks].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const files = checks.map((check) => check.file);
  const records = checks.flatMap((check) => (check.record ? [check.record] : []));
  const siteProblems = checkSiteIntegrity(records);
  const duplicated = new Set(siteProblems.map((p) => p.file));
  return {
    files,
    records: records.filter((r) => !duplicated.has(r.file)),
    problems: sortByFile([...checks.flatMap((check) => check.problems), ...siteProblems], files),
    checks,
    checked,
  };
}

/** Problems grouped by file in the order files were listed, each file's own order kept. */
function sortByFile(problems: Problem[], files: string[]): Problem[] {
  const order = new Map(files.map((file, i) => [file, i]));
  return problems
    .map((problem, i) => ({ problem, i }))
    .sort((a, b) => (order.get(a.problem.file) ?? 0) - (order.get(b.problem.file) ?? 0) || a.i - b.i)
    .map(({ problem }) => problem);
}

/** Maps in batches so ten thousand files never hold ten thousand descriptors open at once. */
async function mapInBatches<T, R>(items: T[], size: number, map: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map(map))));
  }
  return results;
}
