import { describe, expect, it } from 'vitest';
import { HEAD_DESCRIPTION_LENGTH, HEAD_TITLE_LENGTH, headText } from '../../../src/lib/site/head-text.ts';
import { headHtml } from '../../../src/lib/site/page-frame.ts';

describe('headText', () => {
  it('keeps text within the limit as it is', () => {
    expect(headText('Ridgeline RK6210 Heavyweight Tee: Commerce', HEAD_TITLE_LENGTH)).toBe('Ridgeline RK6210 Heavyweight Tee: Commerce');
  });

  it('cuts longer text at a word and ends it in an ellipsis', () => {
    expect(headText('Heavyweight tee in garment-dyed cotton', 20)).toBe('Heavyweight tee in…');
    expect(headText('Heavyweight tee, garment-dyed', 17)).toBe('Heavyweight tee…');
  });

  it('cuts a text without spaces at a whole character, never inside an emoji or a surrogate pair', () => {
    const cut = headText('👍🏽'.repeat(20), 9);
    expect(cut).toBe('👍🏽👍🏽…');
    expect(cut.isWellFormed()).toBe(true);
  });

  it('closes the bidirectional formatting the kept part leaves open', () => {
    expect(headText(`\u202E${'gnp '.repeat(30)}\u202C`, 12)).toBe('\u202Egnp gnp…\u202C');
  });
});

describe('headHtml', () => {
  it('gives a page of a 5,000-character title and description a title and description of search-result length', () => {
    const head = headHtml({
      title: 'Tee '.repeat(1250),
      description: 'Soft cotton. '.repeat(400),
      canonical: null,
      ogType: 'article',
      stylesheet: '/styles/site.css',
    }).markup;
    const title = /<title>([^<]*)<\/title>/.exec(head)![1]!;
    expect(title.length).toBeLessThanOrEqual(HEAD_TITLE_LENGTH);
    expect(title.endsWith('…')).toBe(true);
    for (const name of ['name="description"', 'property="og:description"']) {
      const content = new RegExp(`<meta ${name} content="([^"]*)">`).exec(head)![1]!;
      expect(content.length).toBeLessThanOrEqual(HEAD_DESCRIPTION_LENGTH);
      expect(content).toMatch(/^Soft cotton\. .*…$/);
    }
    expect(/<meta property="og:title" content="([^"]*)">/.exec(head)![1]).toBe(title);
  });
});
