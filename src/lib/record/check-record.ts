import { readlinkSync } from 'node:fs';
import { errorMessage } from '../errors.ts';
import { checkRecordIntegrity, type RecordFile, type RecordKey } from './integrity.ts';
import { decodeJsonBytes, parseJson, type JsonSyntaxError } from './parse.ts';
import type { Problem } from './problem.ts';
import type { GarmentRecord } from './types.ts';
import { validateRecord } from './validate.ts';

/** What checking one record's bytes found: its record when it is valid, and every problem. */
export interface RecordFileResult {
  record?: GarmentRecord;
  problems: Problem[];
}

/** A file with the size and modification time it had when listed. */
export interface FileStat {
  file: string;
  size: number;
  mtimeMs: number;
}

/** A file holding a valid record, with what the caller chose to keep of it. */
export interface CheckedRecord<Summary> extends RecordKey {
  summary: Summary;
}

/** What checking one file found, with the size and modification time it had then. */
export interface FileCheck<Summary> extends FileStat {
  /** Present when the file holds a valid record. */
  record?: CheckedRecord<Summary>;
  problems: Problem[];
}

/**
 * The one check of a record: its bytes as UTF-8 and JSON text, then the schema, then its own
 * references; `file` names it in the problems. Every build, `npm run validate` and the publish
 * service check records through this.
 */
export function checkRecordBytes(file: string, bytes: Uint8Array): RecordFileResult {
  const decoded = decodeJsonBytes(bytes);
  if (!decoded.ok) return { problems: [notJsonText(file, 'not UTF-8 text', decoded.error)] };
  const parsed = parseJson(decoded.text);
  if (!parsed.ok) return { problems: [notJsonText(file, 'invalid JSON', parsed.error)] };
  const schemaProblems = validateRecord(parsed.value, file);
  if (schemaProblems.length > 0) return { problems: schemaProblems };
  const record = parsed.value as GarmentRecord;
  const problems = checkRecordIntegrity({ file, record });
  return problems.some((p) => p.severity === 'error') ? { problems } : { record, problems };
}

/**
 * checkRecordBytes on a listed file's bytes, as a file check keeping what `summarize` chooses of a
 * valid record; the record itself too, for a caller that renders it from this one read.
 */
export function checkFileBytes<Summary>(
  stat: FileStat,
  bytes: Uint8Array,
  summarize: (record: RecordFile) => Summary,
): { check: FileCheck<Summary>; record?: GarmentRecord } {
  const { record, problems } = checkRecordBytes(stat.file, bytes);
  if (!record) return { check: fileCheckOf(stat, problems) };
  return {
    check: fileCheckOf(stat, problems, {
      slug: record.slug,
      projection: record.projection,
      summary: summarize({ file: stat.file, record }),
    }),
    record,
  };
}

/** A file's check from the problems found in it and, when it holds a valid record, what is kept of that. */
export function fileCheckOf<Summary>(
  { file, size, mtimeMs }: FileStat,
  problems: Problem[],
  valid?: Omit<CheckedRecord<Summary>, 'file'>,
): FileCheck<Summary> {
  return valid ? { file, size, mtimeMs, problems, record: { file, ...valid } } : { file, size, mtimeMs, problems };
}

/**
 * The check of a listed file that could not be read: a link to nothing, or a file this process may
 * not read. It is that file's problem, so every other file's problems are still found and shown.
 */
export function unreadableFileCheck<Summary>(stat: FileStat, error: unknown): FileCheck<Summary> {
  const target = (error as NodeJS.ErrnoException).code === 'ENOENT' ? linkTarget(stat.file) : undefined;
  const why = target === undefined ? errorMessage(error) : `it is a link to ${target}, which does not exist`;
  return fileCheckOf(stat, [{ severity: 'error', file: stat.file, pointer: '', message: `cannot be read: ${why}` }]);
}

function linkTarget(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The record in bytes checkRecordBytes already found valid (in this build or, unchanged since, in
 * the last): parsed, not checked again.
 */
export function recordFromBytes(bytes: Uint8Array): GarmentRecord {
  const decoded = decodeJsonBytes(bytes);
  if (!decoded.ok)
    throw new Error(`not UTF-8 text at line ${decoded.error.line}, column ${decoded.error.column}: ${decoded.error.message}`);
  return JSON.parse(decoded.text) as GarmentRecord;
}

/** A file that is not JSON text, and where. */
function notJsonText(file: string, what: string, { line, column, message }: JsonSyntaxError): Problem {
  return { severity: 'error', file, pointer: '', message: `${what} at line ${line}, column ${column}: ${message}` };
}
