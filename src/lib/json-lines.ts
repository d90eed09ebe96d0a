// Newline-delimited JSON: a value a line, so a file of a million records is never one string, written or read.
import { open } from 'node:fs/promises';

/** How many characters of lines are gathered before a write. */
const WRITE_CHARACTERS = 1 << 20;

/** Writes values into a file as JSON lines, a few thousand lines a write. */
export async function writeJsonLines(file: string, values: Iterable<unknown>): Promise<void> {
  const handle = await open(file, 'w');
  try {
    let text = '';
    // writeFile, not write: one write() may take only part of the text (a disk filling up), saying so only in its count.
    for (const value of values) {
      text += `${JSON.stringify(value)}\n`;
      if (text.length >= WRITE_CHARACTERS) {
        await handle.writeFile(text);
        text = '';
      }
    }
    if (text) await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

/**
 * The values of JSON lines, each line decoded and parsed alone. Throws a SyntaxError when a line is
 * not JSON, or when the text does not end with a newline (a file cut short).
 */
export function parseJsonLines(bytes: Buffer): unknown[] {
  const values: unknown[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    if (end === -1) throw new SyntaxError('JSON lines: the last line has no newline (cut short?)');
    values.push(JSON.parse(bytes.toString('utf8', start, end)));
    start = end + 1;
  }
  return values;
}
