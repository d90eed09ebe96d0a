import { describe, expect, it } from 'vitest';
import type { CollectionView } from '../../../src/lib/site/data-view.ts';
import * as fragments from '../../../src/lib/site/fragments.ts';
import type { Html } from '../../../src/lib/site/html.ts';
import type { ClaimView } from '../../../src/lib/site/page-view.ts';

// The tests read each fragment's markup.
const markupOf =
  <Args extends unknown[]>(build: (...args: Args) => Html) =>
  (...args: Args) =>
    build(...args).markup;
const partsHtml = markupOf(fragments.partsHtml);
const fieldRowsHtml = markupOf(fragments.fieldRowsHtml);
const claimLinksHtml = markupOf(fragments.claimLinksHtml);
const targetHtml = markupOf(fragments.targetHtml);
const itemCardsHtml = markupOf(fragments.itemCardsHtml);
const itemRowsHtml = markupOf(fragments.itemRowsHtml);
const claimEntryHtml = markupOf(fragments.claimEntryHtml);

const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  '</dd></dl><iframe src="javascript:alert(1)">',
  '&lt;already escaped&gt; & &amp;',
  '<!-- comment',
];

/** The tags of a fragment with their attributes; attribute values are quoted, so any tag a value smuggled in would show here. */
function tagsOf(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z][\w-]*)((?:\s+[\w-]+="[^"]*")*)\s*\/?>/g)].map((m) => m[1]!.toLowerCase());
}

/** The fragment with every well-formed tag removed: what is left must hold no markup characters. */
function textOf(html: string): string {
  return html.replace(/<\/?[a-zA-Z][\w-]*(?:\s+[\w-]+="[^"]*")*\s*\/?>/g, '');
}

describe('partsHtml', () => {
  it('joins text, links and code with commas', () => {
    expect(
      partsHtml([
        { kind: 'text', text: 'Navy' },
        { kind: 'link', text: 'v1', href: '#variants-v1', external: false },
        { kind: 'link', text: 'https://example.org/a?b=1&c=2', href: 'https://example.org/a?b=1&c=2', external: true },
        { kind: 'code', text: 'sha-1' },
      ]),
    ).toBe(
      'Navy, <a href="#variants-v1">v1</a>, ' +
        '<a href="https://example.org/a?b=1&amp;c=2" class="external" rel="noopener noreferrer">https://example.org/a?b=1&amp;c=2</a>, <code>sha-1</code>',
    );
  });

  it('gives nothing for no parts', () => {
    expect(partsHtml([])).toBe('');
  });

  it.each(HOSTILE)('escapes hostile text, addresses and code: %s', (hostile) => {
    const html = partsHtml([
      { kind: 'text', text: hostile },
      { kind: 'link', text: hostile, href: hostile, external: true },
      { kind: 'link', text: hostile, href: hostile, external: false },
      { kind: 'code', text: hostile },
    ]);
    expect(tagsOf(html).filter((tag) => !['a', 'code'].includes(tag))).toEqual([]);
    expect(textOf(html)).not.toMatch(/[<>"']/);
    // Attribute values hold no raw quote, so none can be closed early.
    for (const [, value] of html.matchAll(/href="([^"]*)"/g)) expect(value).not.toMatch(/[<>"']/);
  });
});

describe('fieldRowsHtml', () => {
  it('writes a labelled row per field', () => {
    expect(fieldRowsHtml([{ name: 'color', label: 'Colour', parts: [{ kind: 'text', text: 'Navy & white' }] }])).toBe(
      '<div><dt>Colour</dt><dd>Navy &amp; white</dd></div>',
    );
  });

  it.each(HOSTILE)('escapes a hostile label and value: %s', (hostile) => {
    const html = fieldRowsHtml([{ name: 'x', label: hostile, parts: [{ kind: 'text', text: hostile }] }]);
    expect(tagsOf(html)).toEqual(['div', 'dt', 'dt', 'dd', 'dd', 'div']);
    expect(textOf(html)).not.toMatch(/[<>"']/);
  });
});

describe('claimLinksHtml', () => {
  const links = [
    { number: 1, href: '#claim-c1', id: 'c1' },
    { number: 4, href: '#claim-c~20~2', id: 'c 2' },
  ];

  it("writes markers after text, numbers only (the brackets are the style's), the cluster spoken as claims", () => {
    expect(claimLinksHtml(links, 'marker')).toBe(
      '<span class="claim-refs claim-refs--marker"><span class="visually-hidden">Claims </span>' +
        '<a href="#claim-c1" class="claim-ref">1</a>, <a href="#claim-c~20~2" class="claim-ref">4</a></span>',
    );
  });

  it("writes inline markers in a list of facts, after the list's own label", () => {
    expect(claimLinksHtml(links.slice(0, 1), 'inline')).toBe(
      '<span class="claim-refs claim-refs--inline"><a href="#claim-c1" class="claim-ref">1</a></span>',
    );
  });

  it('sorts a cluster, says each number once and merges runs of three or more: [1–3, 7]', () => {
    const link = (number: number) => ({ number, href: `#claim-c${number}`, id: `c${number}` });
    const html = claimLinksHtml([7, 2, 1, 3, 2].map(link), 'marker');
    expect(textOf(html)).toBe('Claims 1–3, 7');
    expect(html).toContain('<a href="#claim-c1" class="claim-ref">1–3</a>');
    expect(textOf(claimLinksHtml([4, 5, 9].map(link), 'inline'))).toBe('4, 5, 9');
  });

  it('gives nothing for no links', () => {
    expect(claimLinksHtml([], 'marker')).toBe('');
  });

  it.each(HOSTILE)('escapes a hostile address: %s', (hostile) => {
    const html = claimLinksHtml([{ number: 2, href: hostile, id: hostile }], 'inline');
    expect(tagsOf(html)).toEqual(['span', 'a', 'a', 'span']);
    expect(textOf(html)).toBe('2');
  });
});

describe('targetHtml', () => {
  it('names a target in words where the page knows them, links it where the page shows it, and leaves a bare path as code', () => {
    expect(targetHtml({ text: 'offers/o1', href: '#offers-o1', label: 'podone, Black M' })).toBe(
      '<a href="#offers-o1">podone, Black M</a>',
    );
    expect(targetHtml({ text: 'offers/o1', href: '#offers-o1' })).toBe('<a href="#offers-o1"><code>offers/o1</code></a>');
    expect(targetHtml({ text: 'nowhere', href: null })).toBe('<code>nowhere</code>');
  });

  it.each(HOSTILE)('escapes a hostile target: %s', (hostile) => {
    for (const href of [hostile, null]) {
      const html = targetHtml({ text: hostile, href });
      expect(tagsOf(html).filter((tag) => !['a', 'code'].includes(tag))).toEqual([]);
      expect(textOf(html)).not.toMatch(/[<>"']/);
    }
  });
});

describe('itemCardsHtml and itemRowsHtml', () => {
  const collection = (items: CollectionView['items'], layout: CollectionView['layout']): CollectionView => ({
    name: 'colors',
    anchor: 'data-colors',
    heading: 'Colors',
    layout,
    columns: [
      { name: 'name', label: 'Name' },
      { name: 'hex', label: 'Hex' },
    ],
    items,
    folded: false,
    grids: null,
  });
  const hex = { name: 'hex', label: 'Hex', parts: [{ kind: 'code' as const, text: '#000080' }] };
  const navy = {
    id: 'navy',
    anchor: 'colors-navy',
    title: 'Navy',
    fields: [hex],
    claims: [{ number: 3, href: '#claim-c3', id: 'c3' }],
    cells: [null, hex],
  };
  const plain = { id: 'white', anchor: '', title: 'white', fields: [], claims: [], cells: [null, null] };

  it('writes a card per item: anchor, title (the id small under it, never in the heading), fields and claims', () => {
    expect(itemCardsHtml(collection([navy, plain], 'cards'), [navy, plain], true)).toBe(
      '<article id="colors-navy" class="item-card" aria-label="Colors: Navy"><h4>Navy</h4><p class="item-id"><code>navy</code></p>' +
        '<dl class="fields"><div><dt>Hex</dt><dd><code>#000080</code></dd></div></dl>' +
        '<p class="item-claims">Claims: <span class="claim-refs claim-refs--inline"><a href="#claim-c3" class="claim-ref">3</a></span></p></article>' +
        '<article class="item-card" aria-label="Colors: white"><h4>white</h4></article>',
    );
  });

  it('writes a row per item, a dash for a missing value and a claims cell when any item has claims', () => {
    expect(itemRowsHtml(collection([navy, plain], 'table'), [plain], true)).toBe(
      `<tr><th scope="row"><code>white</code></th>${'<td class="not-stated">–</td>'.repeat(2)}<td data-label="Claims"></td></tr>`,
    );
  });

  it("names each cell's column, for the stacked table a print makes of a wide one", () => {
    expect(itemRowsHtml(collection([navy], 'table'), [navy], true)).toBe(
      '<tr id="colors-navy"><th scope="row">Navy</th><td class="not-stated">–</td><td data-label="Hex"><code>#000080</code></td>' +
        '<td data-label="Claims"><span class="claim-refs claim-refs--inline"><a href="#claim-c3" class="claim-ref">3</a></span></td></tr>',
    );
  });

  it('leaves out the anchors when the page has them elsewhere', () => {
    expect(itemRowsHtml(collection([navy], 'table'), [navy], false)).toMatch(/^<tr><th/);
    expect(itemCardsHtml(collection([navy], 'cards'), [navy], false)).toMatch(/^<article class="item-card"/);
  });

  it.each(HOSTILE)('escapes hostile ids, titles, headings and values: %s', (hostile) => {
    const field = { name: 'hex', label: hostile, parts: [{ kind: 'text' as const, text: hostile }] };
    const item = { id: hostile, anchor: hostile, title: hostile, fields: [field], claims: [], cells: [field] };
    const hostileCollection = { ...collection([item], 'cards'), heading: hostile, columns: [{ name: 'hex', label: hostile }] };
    for (const html of [itemCardsHtml(hostileCollection, [item], true), itemRowsHtml(hostileCollection, [item], true)]) {
      expect(tagsOf(html).filter((tag) => !['article', 'h4', 'code', 'dl', 'div', 'dt', 'dd', 'tr', 'th', 'td'].includes(tag))).toEqual([]);
      expect(textOf(html)).not.toMatch(/[<>"']/);
    }
  });
});

describe('claimEntryHtml', () => {
  const claim = (fields: Partial<ClaimView> = {}): ClaimView => ({
    id: 'c1',
    number: 2,
    position: 0,
    anchor: 'claim-c1',
    subject: 'Body jersey: weight (g/m²)',
    value: '220 g/m²',
    scope: 'All colours',
    kindLabel: 'Calculation',
    verification: 'source_checked',
    verificationLabel: 'Checked against source',
    targets: [{ text: 'colors/navy', href: '#colors-navy' }],
    references: [],
    derivedFrom: [],
    calculation: null,
    checkedAt: null,
    checkNote: null,
    conflicts: [],
    citedBy: [],
    ...fields,
  });

  it('writes the preview (number as permalink, what it is about with its value, verification, kind and scope), the facts and a note when no text cites the claim', () => {
    expect(claimEntryHtml(claim())).toBe(
      '<li id="claim-c1" class="claim"><p class="claim-head"><a href="#claim-c1" class="claim-number">2</a>' +
        '<span class="claim-value"><span class="claim-subject">Body jersey: weight (g/m²):</span> 220 g/m²</span><span class="badge badge--ok">Checked against source</span></p>' +
        '<p class="claim-scope">Calculation · Scope: All colours</p>' +
        '<dl class="fields fields--inline"><div><dt>About</dt><dd><a href="#colors-navy"><code>colors/navy</code></a></dd></div></dl>' +
        '<p class="backlinks">Not cited in the text above.</p></li>',
    );
  });

  it('writes references with their hosts, locators and excerpts, and backlinks', () => {
    const html = claimEntryHtml(
      claim({
        verification: 'not_verified',
        references: [
          {
            sourceHref: '#source-s1',
            sourceTitle: 'Line sheet',
            url: 'https://example.org/a',
            host: 'example.org',
            locator: 'p. 2',
            excerpt: '6.5 oz',
          },
          { sourceHref: null, sourceTitle: 'Unknown source s9', url: null, host: null, locator: 'row 3', excerpt: null },
        ],
        derivedFrom: [
          { number: 1, href: '#claim-c0', id: 'c0' },
          { text: 'Unknown claim c8', href: null },
        ],
        conflicts: [{ href: '#conflict-x', text: 'colors/navy' }],
        citedBy: [{ href: '#text-3', place: 'Overview' }],
      }),
    );
    expect(html).toContain('<span class="badge badge--warn">');
    // The first reference is in the preview; the others follow the facts.
    expect(html).toContain(
      '<ul class="references" aria-label="References"><li><a href="#source-s1">Line sheet</a> ' +
        '(<a href="https://example.org/a" class="external" rel="noopener noreferrer">example.org</a>), at p. 2' +
        '<blockquote class="excerpt"><p>6.5 oz</p></blockquote></li></ul><dl',
    );
    expect(html).toContain('<ul class="references" aria-label="More references"><li>Unknown source s9, at row 3</li></ul>');
    expect(html).toContain(
      '<dd><span class="claim-refs claim-refs--inline"><a href="#claim-c0" class="claim-ref">1</a></span> Unknown claim c8</dd>',
    );
    expect(html).toContain('<div><dt>Conflicts</dt><dd><a href="#conflict-x">colors/navy</a></dd></div>');
    expect(html).toContain('Cited by: <a href="#text-3" class="backlink">Overview</a></p></li>');
  });

  it.each(HOSTILE)('escapes every piece of hostile record text: %s', (hostile) => {
    const html = claimEntryHtml(
      claim({
        id: hostile,
        anchor: hostile,
        subject: hostile,
        value: hostile,
        scope: hostile,
        kindLabel: hostile,
        verificationLabel: hostile,
        targets: [
          { text: hostile, href: hostile },
          { text: hostile, href: null },
        ],
        references: [{ sourceHref: hostile, sourceTitle: hostile, url: hostile, host: hostile, locator: hostile, excerpt: hostile }],
        derivedFrom: [{ text: hostile, href: null }],
        calculation: hostile,
        checkedAt: hostile,
        checkNote: hostile,
        conflicts: [{ href: hostile, text: hostile }],
        citedBy: [{ href: hostile, place: hostile }],
      }),
    );
    const allowed = ['li', 'p', 'span', 'dl', 'div', 'dt', 'dd', 'a', 'code', 'ul', 'blockquote'];
    expect(tagsOf(html).filter((tag) => !allowed.includes(tag))).toEqual([]);
    expect(textOf(html)).not.toMatch(/[<>"']/);
  });
});
