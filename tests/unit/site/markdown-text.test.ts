import { describe, expect, it } from 'vitest';
import { MARKDOWN_MAX_LENGTH } from '../../../src/lib/record/index.ts';
import { codeSpan, escapeData, inlineMarkdown, oneLine, textBlockLines } from '../../../src/lib/site/markdown-text.ts';
import { markdownHtml, nodesOf, pageText, parseMarkdown, textOf } from '../../support/markdown.ts';

describe('textBlockLines', () => {
  it('writes emphasis with one mark and strong with two, so bold italic stays bold italic', () => {
    expect(textBlockLines('***a*** and ___b___ and ***c** d*')).toEqual(['***a*** and ___b___ and ***c** d*']);
  });

  it('escapes what would start a block and keeps inline Markdown', () => {
    expect(textBlockLines('# Big\n\n- item\n10. ten\n**bold** `c`')).toEqual(['\\# Big', '\\- item', '10\\. ten', '**bold** `c`']);
  });

  it('turns raw HTML into text and drops unsafe links to their label', () => {
    expect(textBlockLines('<b>x</b> [y](javascript:z)')).toEqual(['\\<b>x\\</b> y']);
  });

  it('writes a text block too long to read as Markdown so that it reads exactly as given, as on the page', () => {
    const tail = ' **b** [l](https://x.org) <i>h</i> &amp; &#169; ~~s~~ `c` _u_ ![i](x) \\* # h | t, sales@x.example www.x.example';
    const text = `${'x'.repeat(MARKDOWN_MAX_LENGTH)}${tail}\n# not a heading\n- nor a list`;
    const tree = parseMarkdown(textBlockLines(text).join('\n'));
    expect(tree.children.map((node) => node.type)).toEqual(['paragraph']);
    expect(textOf(tree)).toBe(pageText(text));
    expect(nodesOf(tree, 'strong')).toHaveLength(0);
    expect(nodesOf(tree, 'html')).toHaveLength(0);
    expect(markdownHtml(textBlockLines(text).join('\n'))).not.toContain('<a ');
  });

  it('keeps numeric character references, which the page decodes, so the twin reads as the page does', () => {
    const text = 'caf&#233; &#x3C;b&#x3E; &#35; *x*';
    expect(textBlockLines(text)).toEqual(['caf&#233; &#x3C;b&#x3E; &#35; *x*']);
    expect(textOf(parseMarkdown(textBlockLines(text).join('\n')))).toBe(pageText(text));
    expect(textOf(parseMarkdown(textBlockLines('&#35; not a heading *x*').join('\n')))).toBe('# not a heading x');
  });

  it('writes a numeric reference to a character HTML forbids as U+FFFD, as the page shows it', () => {
    const text = 'a &#x1F; &#127; &#xFFFF; &#0; &#xD800; *x*';
    expect(textBlockLines(text)).toEqual(['a \uFFFD \uFFFD \uFFFD \uFFFD &#xD800; *x*']);
    expect(textOf(parseMarkdown(textBlockLines(text).join('\n')))).toBe(pageText(text));
  });
});

describe('escapeData', () => {
  it.each([
    'a|b *c* _d_ <i>x</i> [e](f) `g` ~h~ #i \\j',
    'see https://x.example/a_b*c*|d and www.x.example/q_r',
    '&amp; &#169; AT&T',
    '# heading-like\n- list-like\n> quote-like',
    '[^c1]: x',
    'write to sales@x.example or mailto:a@b.example',
  ])('renders %j exactly, on one line, as text without links (as the page shows data)', (value) => {
    const tree = parseMarkdown(`x ${escapeData(value)}`);
    expect(tree.children).toHaveLength(1);
    expect(textOf(tree)).toBe(`x ${value.replace(/\s+/g, ' ')}`);
    expect(markdownHtml(escapeData(value))).not.toContain('<a ');
  });

  it('shows the characters HTML forbids as U+FFFD, as the page does', () => {
    expect(escapeData('a\u0001b\u007Fc\u0085d\uFFFFe')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe');
  });

  it('closes a bidirectional override the value leaves open, so that it cannot reorder what follows', () => {
    expect(escapeData('Acme\u202E')).toBe('Acme\u202E\u202C');
  });
});

describe('oneLine', () => {
  it('writes a title with a hard break on one line, without the break’s backslash, and keeps an escaped one', () => {
    expect(oneLine(inlineMarkdown('Heavy\\\nTee'))).toBe('Heavy Tee');
    expect(oneLine(inlineMarkdown('Heavy  \nTee'))).toBe('Heavy Tee');
    expect(oneLine(inlineMarkdown('Heavy\nTee'))).toBe('Heavy Tee');
    expect(oneLine('back\\\\\nslash')).toBe('back\\\\ slash');
    expect(oneLine('odd\\\\\\\nrun')).toBe('odd\\\\ run');
  });
});

describe('codeSpan', () => {
  it('keeps its text on one line, so a line break in it cannot start a heading, a list or a fence', () => {
    const span = codeSpan('x\n# injected\r\n- list\r```');
    expect(span).toBe('```` x # injected - list ``` ````');
    const tree = parseMarkdown(`- **Record id**: ${span}`);
    expect(nodesOf(tree, 'heading')).toEqual([]);
    expect(nodesOf(tree, 'inlineCode').map((node) => node.value)).toEqual(['x # injected - list ```']);
  });
});
