import { mkdtempSync, readFileSync } from 'node:fs';
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
});
