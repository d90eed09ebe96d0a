import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSiteFiles } from '../../../src/lib/pipeline/record-files.ts';

describe('writeSiteFiles', () => {
  it('writes text as UTF-8 (a lone surrogate as U+FFFD) and bytes as they are, making folders', () => {
    const siteDir = mkdtempSync(path.join(tmpdir(), 'site-files-'));
    const texts = {
      '/ascii.html': '<p>plain</p>',
      '/latin1.html': '<p>naïve × café</p>',
      '/two-byte.html': `<p>${'Twill – work jacket ↩ '.repeat(20_000)}🧵</p>`,
      '/a/b/lone.md': 'half \ud83e of a pair, and \udc00 alone',
    };
    const bytes = Uint8Array.from([0x7b, 0x7d, 0xff]);
    writeSiteFiles(siteDir, [
      ...Object.entries(texts).map(([sitePath, content]) => ({ sitePath, content })),
      { sitePath: '/raw.json', content: bytes },
    ]);
    for (const [sitePath, text] of Object.entries(texts)) expect(readFileSync(path.join(siteDir, sitePath))).toEqual(Buffer.from(text));
    expect(readFileSync(path.join(siteDir, 'a/b/lone.md'), 'utf8')).toBe('half \ufffd of a pair, and \ufffd alone');
    expect(readFileSync(path.join(siteDir, 'raw.json'))).toEqual(Buffer.from(bytes));
  });

  it('writes text in pieces as the text they make, past any size and after a larger file', () => {
    const siteDir = mkdtempSync(path.join(tmpdir(), 'site-files-'));
    const large = Array.from({ length: 3_000 }, (_, i) => `<li id="c-${i}">Twill – ${'x'.repeat(i % 700)} ↩ 🧵</li>`);
    const pieces = { '/large.html': ['<ol>', ...large, '</ol>'], '/small.md': ['# Tee\n\n', 'naïve\n'], '/empty.md': [] };
    writeSiteFiles(
      siteDir,
      Object.entries(pieces).map(([sitePath, content]) => ({ sitePath, content })),
    );
    expect(readFileSync(path.join(siteDir, 'large.html')).length).toBeGreaterThan(1 << 20);
    for (const [sitePath, text] of Object.entries(pieces)) expect(readFileSync(path.join(siteDir, sitePath), 'utf8')).toBe(text.join(''));
  });

  it("makes one file of a text two paths hold (a garment's two records' same size chart), each path reading it", () => {
    const siteDir = mkdtempSync(path.join(tmpdir(), 'site-files-'));
    const chart = 'Measurement,S,M\r\nChest,20,22\r\n';
    writeSiteFiles(siteDir, [
      { sitePath: '/garments/tee/svc/size-chart-1.csv', content: chart },
      { sitePath: '/garments/tee/svc/colors.csv', content: 'Colour\r\nNavy\r\n' },
      { sitePath: '/garments/tee/tech/size-chart-1.csv', content: chart },
      { sitePath: '/garments/tee/tech/colors.csv', content: 'Colour\r\nBlack\r\n' },
    ]);
    const at = (sitePath: string) => path.join(siteDir, sitePath);
    expect(readFileSync(at('garments/tee/tech/size-chart-1.csv'), 'utf8')).toBe(chart);
    expect(statSync(at('garments/tee/tech/size-chart-1.csv')).ino).toBe(statSync(at('garments/tee/svc/size-chart-1.csv')).ino);
    expect(statSync(at('garments/tee/svc/size-chart-1.csv')).nlink).toBe(2);
    expect(readFileSync(at('garments/tee/tech/colors.csv'), 'utf8')).toBe('Colour\r\nBlack\r\n');
    expect(statSync(at('garments/tee/tech/colors.csv')).nlink).toBe(1);
  });
});
