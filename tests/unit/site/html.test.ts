import { describe, expect, it } from 'vitest';
import { classList, html, markupPieces, trustedHtml, type HtmlValue } from '../../../src/lib/site/html.ts';

describe('html', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const value = `"><script>alert('x')</script>&`;
    expect(html`<p title="${value}">${value}</p>`.markup).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</p>',
    );
  });

  it('keeps markup it built or was trusted with, joins arrays and leaves out null, undefined and false', () => {
    const items = ['a<b', 'c'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}${trustedHtml('<br>')}`.markup).toBe(
      '<ul><li>a&lt;b</li><li>c</li></ul>0<br>',
    );
  });

  it('nests: an inner template is not escaped twice', () => {
    expect(html`<div>${html`<span>${'&'}</span>`}</div>`.markup).toBe('<div><span>&amp;</span></div>');
  });
});

describe('markupPieces', () => {
  it('keeps a piece per item of nested lists, in order, escaping text and leaving out what html leaves out', () => {
    const part: HtmlValue[] = [html`<section>`, [html`<p>${'a<b'}</p>`, false, null], 'c&d', html`</section>`];
    expect(markupPieces([html`<main>`, part, undefined, html`</main>`])).toEqual([
      '<main>',
      '<section>',
      '<p>a&lt;b</p>',
      'c&amp;d',
      '</section>',
      '</main>',
    ]);
    expect(markupPieces(part).join('')).toBe(html`${part}`.markup);
  });

  it('gives markup that is not a list as one piece', () => {
    expect(markupPieces(html`<p>${'x'}</p>`)).toEqual(['<p>x</p>']);
    expect(markupPieces(false)).toEqual([]);
  });
});

describe('classList', () => {
  it('joins the names given, skipping empty ones', () => {
    expect(classList('entry', false, null, 'entry--open', undefined, '')).toBe('entry entry--open');
  });
});
