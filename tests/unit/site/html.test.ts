import { describe, expect, it } from 'vitest';
import { classList, html, trustedHtml } from '../../../src/lib/site/html.ts';

describe('html', () => {
  it('escapes every interpolated string, in text and in attributes', () => {
    const value = `"><script>alert('x')</script>&`;
    expect(html`<p title="${value}">${value}</p>`.markup).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</p>',
    );
  });

  it('keeps markup it built or was trusted with, joins arrays and leaves out null, undefined and false', () => {
    const items = ['a<b', 'c'].map((item) => html`<li>${item}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}${trustedHtml('<br>')}`.markup).toBe('<ul><li>a&lt;b</li><li>c</li></ul>0<br>');
  });

  it('nests: an inner template is not escaped twice', () => {
    expect(html`<div>${html`<span>${'&'}</span>`}</div>`.markup).toBe('<div><span>&amp;</span></div>');
  });
});

describe('classList', () => {
  it('joins the names given, skipping empty ones', () => {
    expect(classList('entry', false, null, 'entry--open', undefined, '')).toBe('entry entry--open');
  });
});
