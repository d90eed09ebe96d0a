import { describe, expect, it } from 'vitest';
import { editDistance, nearestWords, relatedWords, textWords, wordKey } from '../../../../src/lib/search/query/search-words.ts';

describe('textWords', () => {
  it('gives the distinct words of a text in lower case, without accents, split at anything but letters and digits', () => {
    expect(textWords('Brushed Fleece, 80% Café-cotton; fleece a')).toEqual(['brushed', 'fleece', '80', 'cafe', 'cotton']);
  });

  it('splits as the Unicode definition does: marks, other scripts, digits beyond ASCII, characters outside the BMP, lone surrogates', () => {
    // The definition, written as one expression: what Pagefind's word splitting amounts to for the word lists.
    const defined = (text: string) => [
      ...new Set(
        text
          .normalize('NFD')
          .replace(/\p{M}/gu, '')
          .toLocaleLowerCase('en')
          .split(/[^\p{L}\p{N}]+/u)
          .filter((word) => word.length > 1 && word.length <= 40),
      ),
    ];
    const pool = [
      'a',
      'Z',
      '7',
      ' ',
      '-',
      '²',
      'é',
      'E\u0301',
      '\u0301',
      'Σ',
      'ΟΔΟΣ',
      '.',
      '日本',
      '٣',
      '𝐀',
      '😀',
      '\ud800',
      '\udc00',
      'ß',
      'İ',
      'ǅ',
      '–',
      '\u00a0',
      'x'.repeat(41),
    ];
    const texts = ['Ωmega ΟΔΟΣ. Α', 'naïve CAFÉ 𝐀𝐁c', '\u0301start mid\u0301dle', 'a\ud800b \udc00cd', 'x'.repeat(40), 'x'.repeat(41)];
    let seed = 7;
    for (let n = 0; n < 300; n++) {
      let text = '';
      for (let i = 0; i < 12; i++) text += pool[(seed = (seed * 48271) % 2147483647) % pool.length];
      texts.push(text);
    }
    for (const text of texts) expect(textWords(text), JSON.stringify(text)).toEqual(defined(text));
  });
});

describe('wordKey', () => {
  it('files a word under its first letter or digit, anything else together', () => {
    expect(['fleece', '80', 'été'].map(wordKey)).toEqual(['f', '8', '_']);
  });
});

describe('editDistance', () => {
  it('counts letters dropped, added, changed and neighbours swapped', () => {
    expect(editDistance('flece', 'fleece', 2)).toBe(1);
    expect(editDistance('jakcet', 'jacket', 2)).toBe(1);
    expect(editDistance('fleece', 'fleece', 2)).toBe(0);
    expect(editDistance('flc', 'fleece', 2)).toBe(3);
    expect(editDistance('jackt', 'jacket', 1)).toBe(1);
    expect(editDistance('jckt', 'jacket', 1)).toBe(2);
  });
});

describe('nearestWords', () => {
  const list = { jacket: [3, [0]], jackets: [1, [0]], packet: [5, [1]], fleece: [9, [0, 1]] } as Record<string, [number, number[]]>;

  it('gives the nearest words first and, as near, those more garments say first', () => {
    expect(nearestWords('jakcet', list, 2, 3)).toEqual(['jacket', 'packet', 'jackets']);
    expect(nearestWords('jackez', list, 1, 3)).toEqual(['jacket']);
  });

  it('gives nothing when no word is near enough', () => {
    expect(nearestWords('zzz', list, 2, 3)).toEqual([]);
  });
});

describe('relatedWords', () => {
  // Words of the sample site (their garment counts), with the near misses a loose edit distance would offer.
  const site = {
    water: [2, [0]],
    weather: [1, [0]],
    sweatshirts: [1, [0]],
    seated: [1, [0]],
    fleece: [2, [0]],
    flat: [3, [0]],
    cotton: [3, [0]],
    cost: [3, [0]],
    costs: [2, [0]],
    collar: [2, [0]],
    cold: [1, [0]],
    colour: [3, [0]],
    hoodie: [2, [0]],
    hood: [1, [0]],
    holds: [3, [0]],
    polyester: [3, [0]],
    jacket: [1, [0]],
    jackets: [1, [0]],
    packet: [4, [0]],
  } as Record<string, [number, number[]]>;

  it('offers no word that only shares a run of letters with the word: nothing begins as “sweater” does', () => {
    expect(relatedWords('sweater', site, 3)).toEqual([]);
    expect(relatedWords('xqxq', site, 3)).toEqual([]);
  });

  it('offers the words a misspelling was meant to be', () => {
    expect(relatedWords('flxxce', site, 3)).toEqual(['fleece']);
    expect(relatedWords('polyster', site, 3)).toEqual(['polyester']);
    expect(relatedWords('sweatshrt', site, 3)).toEqual(['sweatshirts']);
  });

  it('allows fewer edits the shorter the word: one up to five letters, so “cottn” is not “cost”, nor “colar” “cold”', () => {
    expect(relatedWords('cottn', site, 3)).toEqual(['cotton']);
    expect(relatedWords('colar', site, 3)).toEqual(['collar']);
    expect(relatedWords('hoodi', site, 3)).toEqual(['hoodie', 'hood']);
  });

  it('needs the first two letters of a longer word: a mistyped start is no relative (“packet” for “jakcet”)', () => {
    expect(relatedWords('jakcet', site, 3)).toEqual(['jacket', 'jackets']);
  });

  it('puts words more garments say first among those as near', () => {
    const list = { fleeced: [1, [0]], fleecy: [5, [0]], fleece: [2, [0]] } as Record<string, [number, number[]]>;
    expect(relatedWords('fleecs', list, 2)).toEqual(['fleecy', 'fleece']);
  });
});
