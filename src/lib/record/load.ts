import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { GarmentPressError } from '../errors.ts';
import { checkRecordIntegrity, checkSiteIntegrity, type RecordFile, type RecordKey } from './integrity.ts';
import { parseJson } from './parse.ts';
import type { Problem } from './problem.ts';
import type { GarmentRecord } from './types.ts';
import { validateRecord } from './validate.ts';

/** A path given to check that is neither a file nor a folder. */
export class MissingPathError extends GarmentPressError {}

/** A file holding a valid record, with what the caller chose to keep of it. */
export interface CheckedRecord<Summary> extends RecordKey {
  summary: Summary;
}

/** What checking a set of record files found. */
export interface RecordCheck<Summary = undefined> {
  /** Every file looked at, as displayed in problems. */
  files: string[];
  /** The files that hold a valid record (schema and integrity errors excluded). */
  records: CheckedRecord<Summary>[];
  /** Every error and warning, in file order. */
  problems: Problem[];
}

/** Lists the `.json` files under the given files and folders (folders recursively), sorted. */
export async function listRecordFiles(paths: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const given of paths) {
    const info = await stat(given).catch(() => undefined);
    if (!info) throw new MissingPathError(`${given}: no such file or folder`);
    if (info.isFile()) {
      files.push(given);
      continue;
    }
    const entries = await readdir(given, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (entry.isFile() && entry.name.endsWith('.json')) files.push(path.join(entry.parentPath, entry.name));
    }
  }
  return [...new Set(files)].sort();
}

/** Reads one file and checks it alone: JSON syntax, then the schema, then its own references. */
export async function checkRecordFile(file: string): Promise<{ record?: GarmentRecord; problems: Problem[] }> {
  // Editors on some systems save a byte order mark; it is not part of the JSON.
  const text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.error;
    return { problems: [{ severity: 'error', file, pointer: '', message: `invalid JSON at line ${line}, column ${column}: ${message}` }] };
  }
  const schemaProblems = validateRecord(parsed.value, file);
  if (schemaProblems.length > 0) return { problems: schemaProblems };
  const record = parsed.value as GarmentRecord;
  const problems = checkRecordIntegrity({ file, record });
  return problems.some((p) => p.severity === 'error') ? { problems } : { record, problems };
}

/**
 * Checks every record under the given paths, and the set as a whole.
 * Records are not kept (ten thousand of them would not fit); `summarize` keeps what the caller needs.
 * Expected failures (bad JSON, schema, integrity) are problems, never throws.
 */
export async function checkRecords<Summary = undefined>(
  paths: string[],
  summarize: (record: RecordFile) => Summary = () => undefined as Summary,
): Promise<RecordCheck<Summary>> {
  const files = await listRecordFiles(paths);
  const problems: Problem[] = [];
  const checked = await mapInBatches(files, 64, async (file): Promise<CheckedRecord<Summary> | undefined> => {
    const result = await checkRecordFile(file);
    problems.push(...result.problems);
    if (!result.record) return undefined;
    const { slug, projection } = result.record;
    return { file, slug, projection, summary: summarize({ file, record: result.record }) };
  });
  const records = checked.filter((record) => record !== undefined);
  const siteProblems = checkSiteIntegrity(records);
  const duplicated = new Set(siteProblems.map((p) => p.file));
  return {
    files,
    records: records.filter((r) => !duplicated.has(r.file)),
    problems: sortByFile([...problems, ...siteProblems], files),
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
