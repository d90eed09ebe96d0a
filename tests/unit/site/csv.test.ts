import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvField, csvText } from '../../../src/lib/site/csv.ts';

/** Rows as a spreadsheet or a program reads them back (csv-parse, strict about quotes). */
const parsed = (text: string): string[][] => parse(text, { relax_quotes: false, record_delimiter: '\r\n' });

describe('csvText', () => {
  it('writes a header and rows ended by CRLF, quoting only fields that need it', () => {
    expect(csvText(['Item', 'Price'], [['Tee', '$5.00']])).toBe('Item,Price\r\nTee,$5.00\r\n');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('reads back as written: commas, quotes, line breaks and non-Latin text survive a CSV parser', () => {
    const rows = [
      ['Jersey, combed', 'He said "9 oz"', 'line one\r\nline two', 'ÄÖ – 綿 🧵'],
      ['', 'x', ',', '"'],
    ];
    expect(parsed(csvText(['A', 'B', 'C', 'D'], rows))).toEqual([['A', 'B', 'C', 'D'], ...rows]);
  });

  it('makes a cell a spreadsheet would run as a formula read as text, as OWASP advises, and leaves numbers alone', () => {
    const hostile = ['=HYPERLINK("http://evil.example","x")', '+1+cmd|/C calc!A0', '-2+3', '@SUM(A1)', '\t=1', '\r=1'];
    const [, row] = parsed(
      csvText(
        hostile.map((_, i) => `h${i}`),
        [hostile],
      ),
    );
    expect(row).toEqual(hostile.map((cell) => `'${cell}`));
    for (const number of ['-3.5', '+2', '-10']) expect(csvField(number)).toBe(number);
    expect(csvField('–')).toBe('–');
  });

  it('shows control characters as U+FFFD and closes a right-to-left override, as the page does', () => {
    expect(csvField('\u0001javascript:alert(1)')).toBe('\uFFFDjavascript:alert(1)');
    expect(csvField('\u202Egnp.exe')).toBe('\u202Egnp.exe\u202C');
  });

  it('shows a noncharacter beyond the BMP as U+FFFD too, with or without a comma beside it, and keeps other astral text', () => {
    expect(csvField('a\u{1FFFE}b')).toBe('a\uFFFDb');
    expect(csvField('a\u{10FFFF},b')).toBe('"a\uFFFD,b"');
    expect(csvField('\u{1FC00} \u{1F9F5}')).toBe('\u{1FC00} \u{1F9F5}');
  });
});
