/** What a Range header asks of a body of known size: all of it, one span (inclusive ends), or nothing it has. */
export type RangeAnswer = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * Reads a Range header against a body's size (RFC 9110 §14). One `bytes=` range is served as a part;
 * anything else (no header, another unit, several ranges, bad syntax) is served whole, as a server
 * may; a well-formed range that starts past the end is unsatisfiable (416).
 * @example byteRange('bytes=0-99', 1000) → { kind: 'part', start: 0, end: 99 }
 * @example byteRange('bytes=-10', 1000) → { kind: 'part', start: 990, end: 999 }
 * @example byteRange('bytes=2000-', 1000) → { kind: 'unsatisfiable' }
 */
export function byteRange(header: string | undefined, size: number): RangeAnswer {
  const match = header === undefined ? null : /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i.exec(header.trim());
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}
