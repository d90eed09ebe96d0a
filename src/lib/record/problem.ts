import { BIDI_FORMATTING, unicodeEscape } from '../unicode.ts';

/** One thing wrong (error) or doubtful (warning) about one place in one file. */
export interface Problem {
  severity: 'error' | 'warning';
  /** The file as the user named it, relative to the working directory where possible. */
  file: string;
  /** JSON pointer into the file's record; '' is the whole record. */
  pointer: string;
  message: string;
}

/**
 * Formats a problem as `file: /pointer: message`, the shape every report uses, on one line: record
 * text in it cannot start another line, move a terminal's cursor or reorder what follows.
 */
export function formatProblem(problem: Problem): string {
  const where = problem.pointer === '' ? '(record)' : problem.pointer;
  const tag = problem.severity === 'warning' ? 'warning: ' : '';
  return `${problem.file}: ${where}: ${tag}${problem.message}`.replace(NOT_SHOWN_AS_IS, unicodeEscape);
}

/** Controls (tab aside), line and paragraph separators and bidirectional formatting characters. */
const NOT_SHOWN_AS_IS = new RegExp(String.raw`[\0-\x08\x0A-\x1F\x7F-\x9F\u2028\u2029${BIDI_FORMATTING}]`, 'g');

/** Escapes one JSON pointer token (RFC 6901). */
export function pointerToken(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Describes a JSON value briefly for a message: its type, and the value itself when short. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  // JSON.parse makes Infinity of a number like 1e400, which JSON.stringify would write as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number too large to hold';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${typeof value} ${text.slice(0, 57)}..."` : text;
}
