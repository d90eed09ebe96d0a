import { Lexer, Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { escapeHtml, isPlainText, plainText, renderInline } from '../../../src/lib/site/text.ts';
import { closeBidi } from '../../../src/lib/unicode.ts';
import { MARKDOWN_MAX_LENGTH, MARKDOWN_MAX_MARKS } from '../../../src/lib/record/index.ts';
import { sampleRecords } from '../../support/records.ts';

const ALLOWED_TAGS = new Set(['a', 'strong', 'em', 'code', 'del', 'br']);

/** Every opening tag the renderer produced, with its attributes, so a test can check nothing else got through. */
function tagsOf(html: string): { name: string; attributes: string }[] {
  return [...html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)].map((m) => ({ name: m[1]!.toLowerCase(), attributes: m[2]!.trim() }));
}

const HOSTILE = [
  ['a script element', '<script>alert(1)</script>'],
  ['an image with an error handler', '<img src=x onerror=alert(1)>'],
  ['an svg with an onload handler', '<svg onload=alert(1)>'],
  ['an iframe', '<iframe src="javascript:alert(1)"></iframe>'],
  ['a raw anchor with a javascript: href', '<a href="javascript:alert(1)">x</a>'],
  ['a style element', '<style>body{display:none}</style>'],
  ['a meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
  ['an HTML comment', '<!-- x --><b>'],
  ['a Markdown javascript: link', '[x](javascript:alert(1))'],
  ['a mixed-case javascript: link', '[x](JaVaScRiPt:alert(1))'],
  ['a javascript: link hidden by an entity', '[x](java&#x73;cript:alert(1))'],
  ['a javascript: link after spaces', '[x](   javascript:alert(1))'],
  ['a data: link', '[x](data:text/html,<script>alert(1)</script>)'],
  ['a vbscript: link', '[x](vbscript:msgbox(1))'],
  ['a protocol-relative link', '[x](//evil.example/)'],
  ['a backslash link', '[x](/\\evil.example)'],
  ['a Markdown image', '![x](https://evil.example/pixel.png)'],
  ['a Markdown image with javascript:', '![x](javascript:alert(1))'],
  ['a reference-style javascript: link', '[x][r]\n\n[r]: javascript:alert(1)'],
  ['an autolink with javascript:', '<javascript:alert(1)>'],
  ['a title that breaks out of its attribute', '[x](https://example.org "a\\" onmouseover=\\"alert(1)")'],
  ['quotes in a link destination', '[x](https://example.org/"onmouseover="alert(1))'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text a hostile record writes, not a template
  ['template syntax', '{{constructor.constructor("alert(1)")()}} ${alert(1)}'],
  ['an encoded tag', '&lt;script&gt;alert(1)&lt;/script&gt;'],
] as const;

describe('renderInline', () => {
  it.each(HOSTILE)('keeps %s inert', (_, payload) => {
    const html = renderInline(payload);
    for (const tag of tagsOf(html)) {
      expect(ALLOWED_TAGS).toContain(tag.name);
      if (tag.name !== 'a') {
        expect(tag.attributes).toBe('');
        continue;
      }
      const attributes = [...tag.attributes.matchAll(/([\w-]+)="([^"]*)"/g)];
      expect(attributes.map((a) => a[1])).toEqual(expect.arrayContaining(['href']));
      for (const [, name, value] of attributes) {
        expect(['href', 'rel']).toContain(name);
        if (name === 'href') expect(value).toMatch(/^(https?:|mailto:|\/(?![/\\])|#)/i);
      }
    }
    expect(html).not.toMatch(/href="\s*(javascript|data|vbscript):/i);
  });

  it('renders emphasis, code and safe links', () => {
    expect(renderInline('**b** _i_ `c` [s](https://example.org) [m](mailto:a@example.org) [r](/garments/tee/)')).toBe(
      '<strong>b</strong> <em>i</em> <code>c</code> <a href="https://example.org/" rel="noopener noreferrer nofollow">s</a> ' +
        '<a href="mailto:a@example.org">m</a> <a href="/garments/tee/">r</a>',
    );
  });

  it('shows the characters HTML forbids in a document as U+FFFD, in Markdown text too', () => {
    expect(renderInline('**a**\u0001 `b\u0002`')).toBe('<strong>a</strong>\uFFFD <code>b\uFFFD</code>');
  });

  it('shows the noncharacters beyond the BMP (U+1FFFE … U+10FFFF) as U+FFFD, and leaves other astral characters alone', () => {
    expect(renderInline('*a* \u{1FFFE} \u{10FFFF} \u{1F3FF}')).toBe('<em>a</em> \uFFFD \uFFFD \u{1F3FF}');
    expect(escapeHtml('a \u{2FFFF} \u{1F3FF} \u{1F9F5}')).toBe('a \uFFFD \u{1F3FF} \u{1F9F5}');
  });

  it('shows a character reference to a character HTML forbids as U+FFFD too, since the renderer decodes it', () => {
    expect(renderInline('*a* &#x1F; &#127; &#128; &#xFDD0; &#xFFFF; &#11; &#233;')).toBe(
      '<em>a</em> \uFFFD \uFFFD \uFFFD \uFFFD \uFFFD \uFFFD é',
    );
  });

  it('links a path with a tab or line break in it only where it stays on the site', () => {
    expect(renderInline('[x](</\t/evil.example/>)')).toBe('x');
    expect(renderInline('[x](</garments/a\ttee/>)')).toBe('<a href="/garments/atee/">x</a>');
  });

  it('shows raw HTML as text', () => {
    expect(renderInline('<b>tee</b>')).toBe('&lt;b&gt;tee&lt;/b&gt;');
  });

  it('turns an unsafe link into its plain label', () => {
    expect(renderInline('[click me](javascript:alert(1))')).toBe('click me');
  });

  it('turns an image into its alt text', () => {
    expect(renderInline('![front view](https://example.org/a.png)')).toBe('front view');
  });

  it('does not create block elements', () => {
    const html = renderInline('# heading\n\n> quote\n\n- item\n\n| a |\n|---|');
    expect(tagsOf(html).map((t) => t.name)).toEqual([]);
  });
});

describe('isPlainText', () => {
  const stringsOf = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(stringsOf) : [];
  const corpus = [
    ...sampleRecords().flatMap(({ record }) => stringsOf(record)),
    ...HOSTILE.map(([, payload]) => payload),
    'a\\*b',
    'a*b*',
    'a_b_',
    '`c`',
    '~~d~~',
    '[l](x)',
    '![i](x)',
    '<b>',
    'a &amp; b',
    'see https://x.org',
    'www.x.org',
    'mail a@x.org',
    'line  \nbreak',
    'back\\\nslash',
    'ftp://x.org',
    'Fits "true" to size, it\'s 5 > 4',
  ];

  it('holds for text the Markdown lexer reads as plain text alone, which the fast paths rely on', () => {
    const plain = new Marked({ gfm: true, async: false });
    let checked = 0;
    for (const text of corpus) {
      const tokens = Lexer.lexInline(text, { gfm: true });
      const lexedPlain = tokens.every((token) => token.type === 'text') && tokens.map((token) => token.raw).join('') === text;
      if (!isPlainText(text)) continue;
      checked++;
      expect(lexedPlain, text).toBe(true);
      expect(renderInline(text), text).toBe(plain.parseInline(text));
      expect(plainText(text)).toBe(text);
    }
    // Most record text is plain: the check must have covered plenty of it.
    expect(checked).toBeGreaterThan(200);
  });

  it('is false for every kind of inline syntax', () => {
    for (const text of [
      'a*b*',
      'a_b_',
      '`c`',
      '~~d~~',
      '[l](x)',
      '![i](x)',
      '<b>',
      'a &amp; b',
      'see https://x.org',
      'www.x.org',
      'mail a@x.org',
      'line\nbreak',
      'a\\*',
    ]) {
      expect(isPlainText(text), text).toBe(false);
    }
    expect(isPlainText('Midweight 6.5 oz cotton, fits true to size.')).toBe(true);
  });
});

describe('text blocks too long to read as Markdown', () => {
  // Markdown's inline rules take time growing with the square of the length: '*a' repeated would hold a build for hours.
  const long = `${'*a'.repeat(MARKDOWN_MAX_LENGTH / 2)} **b** <i>x</i>`;

  it('are shown as plain text, escaped, with their syntax characters as written', () => {
    expect(renderInline(long)).toBe(escapeHtml(long));
    expect(renderInline(long)).not.toContain('<strong>');
    expect(plainText(long)).toBe(long);
  });

  it('are read as Markdown up to the limit', () => {
    const atLimit = `${'a'.repeat(MARKDOWN_MAX_LENGTH - 6)} **b**`;
    expect(renderInline(atLimit)).toBe(`${'a'.repeat(MARKDOWN_MAX_LENGTH - 6)} <strong>b</strong>`);
  });
});

describe('text blocks with too many emphasis, code and link marks to read as Markdown', () => {
  // Unmatched marks make the inline rules slow down with their square: 'a)*' repeated took a third of a second a block.
  const marked = (count: number) => `${'a)*'.repeat(count - 2)} **b**`;

  it('are shown as plain text, escaped, with their syntax characters as written', () => {
    const hostile = marked(MARKDOWN_MAX_MARKS + 3);
    expect(renderInline(hostile)).toBe(escapeHtml(hostile));
    expect(plainText(hostile)).toBe(hostile);
  });

  it('are read as Markdown up to the limit', () => {
    expect(renderInline(marked(MARKDOWN_MAX_MARKS - 2))).toContain('<strong>b</strong>');
  });
});

describe('plainText', () => {
  it('drops Markdown syntax and decodes nothing dangerous into markup', () => {
    expect(plainText('**Heavy** [tee](https://example.org)')).toBe('Heavy tee');
    expect(plainText('<script>x</script>')).toBe('<script>x</script>');
  });
});

describe('escapeHtml', () => {
  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('shows the characters HTML forbids in a document as U+FFFD, keeping whitespace', () => {
    expect(escapeHtml('a\u0000b\u0001c\u000Bd\u007Fe\u0085f\uFDD0g\uFFFFh')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg\uFFFDh');
    expect(escapeHtml('tab\tline\nfeed\fcr\r')).toBe('tab\tline\nfeed\fcr\r');
  });
});

describe('closeBidi', () => {
  const [LRE, RLE, PDF, RLO, RLI, PDI] = ['\u202A', '\u202B', '\u202C', '\u202E', '\u2067', '\u2069'];

  it.each([
    ['an override left open', `abc${RLO}def`, `abc${RLO}def${PDF}`],
    ['an isolate inside an embedding, innermost closed first', `${RLE}a${RLI}b`, `${RLE}a${RLI}b${PDI}${PDF}`],
    ['an embedding whose PDF is inside an isolate opened after it', `${LRE}${RLI}a${PDF}`, `${LRE}${RLI}a${PDF}${PDI}${PDF}`],
  ])('closes %s', (_, text, closed) => {
    expect(closeBidi(text)).toBe(closed);
  });

  it.each([
    ['text without formatting characters', 'Fits true to size'],
    ['a closed override', `a${RLO}b${PDF}c`],
    ['an isolate whose PDI also closes the override inside it', `${RLI}${RLO}a${PDI}b`],
    ['closers with nothing open', `${PDF}${PDI}a`],
  ])('leaves %s as it is', (_, text) => {
    expect(closeBidi(text)).toBe(text);
  });

  it('closes what record text leaves open wherever a page shows it, Markdown or not', () => {
    expect(escapeHtml(`12.99 ${RLO}USD <b>`)).toBe(`12.99 ${RLO}USD &lt;b&gt;${PDF}`);
    expect(escapeHtml(`12.99 ${RLO}USD`)).toBe(`12.99 ${RLO}USD${PDF}`);
    expect(renderInline(`Fits *true* ${RLO}to size`)).toBe(`Fits <em>true</em> ${RLO}to size${PDF}`);
  });
});
