import { closeBidi } from '../unicode.ts';

/**
 * Whether JSON bytes may hold a bidirectional formatting character (U+202A–U+202E, U+2066–U+2069),
 * as UTF-8 or as a `\u` escape: most records hold none, and need no closeBidiThroughout.
 */
export function mayHoldBidiFormatting(bytes: Uint8Array): boolean {
  for (let at = bytes.indexOf(0xe2); at !== -1; at = bytes.indexOf(0xe2, at + 1)) {
    const [second, third] = [bytes[at + 1], bytes[at + 2]];
    if (third !== undefined && ((second === 0x80 && third >= 0xaa && third <= 0xae) || (second === 0x81 && third >= 0xa6 && third <= 0xa9)))
      return true;
  }
  // `\u20`, the start of an escaped U+202A–U+202E or U+2066–U+2069 (and of other characters, read as maybe).
  for (let at = bytes.indexOf(0x5c); at !== -1; at = bytes.indexOf(0x5c, at + 1)) {
    if (bytes[at + 1] === 0x75 && bytes[at + 2] === 0x32 && bytes[at + 3] === 0x30) return true;
  }
  return false;
}

/** Members that identify or point at something (spec: cross-references end in `_id`/`_ids`): matched as written, never read as text. */
const REFERENCE = /^(?:id|targets?|derived_from|.*_ids?)$/;

/**
 * Closes, in place, the bidirectional formatting each text of a parsed record leaves open
 * (closeBidi), so record text the site joins with its own words ("<name>: 14 of 15 in stock")
 * cannot reorder them; identifiers and references stay as written. Iterative: a record may nest
 * thousands of levels deep.
 */
export function closeBidiThroughout(record: object): void {
  const pending: object[] = [record];
  for (let container = pending.pop(); container !== undefined; container = pending.pop()) {
    const members = container as Record<string, unknown>;
    const isList = Array.isArray(container);
    for (const key of Object.keys(members)) {
      if (!isList && REFERENCE.test(key)) continue;
      const member = members[key];
      if (typeof member === 'string') members[key] = closeBidi(member);
      else if (typeof member === 'object' && member !== null) pending.push(member);
    }
  }
}

/** A record read from its bytes, as its pages show it: closeBidiThroughout, for a record whose bytes may hold bidirectional formatting. */
export function closeBidiInRecord(record: object, bytes: Uint8Array): void {
  if (mayHoldBidiFormatting(bytes)) closeBidiThroughout(record);
}
