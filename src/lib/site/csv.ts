import { ASTRAL_NONCHARACTER_LEADS, BIDI_FORMATTING, FORBIDDEN_IN_HTML } from '../unicode.ts';
import { displayText } from './text.ts';

/**
 * CSV text after RFC 4180: fields separated by commas, records ended by CRLF, a field quoted when
 * it holds a comma, a double quote, CR or LF, its quotes doubled. The site writes it as UTF-8.
 */

/** Characters that start a formula in a spreadsheet (OWASP, "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number, which a spreadsheet reads as a number and never as a formula (`-3.5`). */
const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;
/** Characters that oblige a field to be quoted. */
const NEEDS_QUOTES = /[",\r\n]/;
/** A field written as it is: no formula start, nothing to quote, nothing displayText changes (most cells; one test instead of four; a noncharacter beyond the BMP is told by its first unit). */
const AS_IT_IS = new RegExp(`^(?![=+\\-@\\t\\r])[^",\\r\\n${FORBIDDEN_IN_HTML}${BIDI_FORMATTING}${ASTRAL_NONCHARACTER_LEADS}]*$`);

/**
 * One field. Record text is untrusted: a field a spreadsheet would run as a formula is prefixed
 * with a single quote, so it reads as text (OWASP's advice), and then quoted as any other field;
 * control characters become U+FFFD and open bidirectional formatting is closed, as on the page.
 * @example csvField('=HYPERLINK("x")') → `"'=HYPERLINK(""x"")"`
 * @example csvField('-3.5') → '-3.5'
 */
export function csvField(text: string): string {
  if (AS_IT_IS.test(text)) return text;
  const value = displayText(text);
  const safe = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) || safe !== value ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * CSV rows, every record ended by CRLF: a header row and data rows make a CSV file.
 * @example csvRows([['Item', 'Price'], ['Tee', '$5.00']]) → 'Item,Price\r\nTee,$5.00\r\n'
 */
export function csvRows(rows: readonly (readonly string[])[]): string {
  let text = '';
  // Field after field onto one string: no array and no joined string per row (a record's tables hold about 1,500 cells).
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) text += i === 0 ? csvField(row[i]!) : `,${csvField(row[i]!)}`;
    text += '\r\n';
  }
  return text;
}

/**
 * A CSV file of a header row and data rows, every record ended by CRLF.
 * @example csvText(['Item', 'Price'], [['Tee', '$5.00']]) → 'Item,Price\r\nTee,$5.00\r\n'
 */
export function csvText(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return csvRows([header, ...rows]);
}
