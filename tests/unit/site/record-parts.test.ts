// The parts of a record page as a reader meets them: key facts, tables to compare, conflicts side by
// side, claims with their permalinks, gaps in words; record text always shown as text, never as markup.
import { describe, expect, it } from 'vitest';
import type { CommerceRecord, GarmentRecord } from '../../../src/lib/record/types.ts';
import { markupPieces, type HtmlValue } from '../../../src/lib/site/html.ts';
import { pageView, type PageView } from '../../../src/lib/site/page-view.ts';
import {
  claimsHtml,
  conflictsHtml,
  dataCollectionsHtml,
  gapsHtml,
  keyFactsHtml,
  keyFactsPanelHtml,
  csvLinker,
  scrollingTable,
  sectionHtml,
  sourcesHtml,
  textBlockHtml,
} from '../../../src/lib/site/record-parts.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

const markup = (value: HtmlValue) => markupPieces(value).join('');
const viewOf = (record: GarmentRecord): PageView => pageView(record, { otherProjectionExists: true });
const sample = (file: string) => copyOf(sampleRecords().find((s) => s.file.endsWith(file))!.record);
const tee = () => sample('ridgeline-rk6210-heavyweight-tee.svc.json') as CommerceRecord;

/** The rows of a table's body, each row's cells as text. */
function bodyRows(table: string): string[][] {
  const body = table.slice(table.indexOf('<tbody>'), table.indexOf('</tbody>'));
  return [...body.matchAll(/<tr\b[^>]*>(.*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<t[hd]\b[^>]*>(.*?)<\/t[hd]>/g)].map((cell) => cell[1]!.replace(/<[^>]+>/g, '')),
  );
}

describe('keyFactsHtml', () => {
  it('opens with the key facts heading, the twins beside it, and a row per fact', () => {
    const view = viewOf(tee());
    const panel = markup(keyFactsHtml(view));
    expect(panel).toMatch(
      /^<section id="key-facts" class="key-facts" aria-labelledby="key-facts-heading"><div class="key-facts-top"><h2 id="key-facts-heading">Key facts<\/h2>/,
    );
    expect(panel).toContain(`<a href="/garments/${view.slug}/svc.json">JSON</a>`);
    expect(panel).toContain(`<a href="/garments/${view.slug}/svc.md">Markdown</a>`);
    for (const key of ['price', 'sizes', 'colors', 'stock']) expect(panel).toContain(`<div data-fact="${key}"><dt>`);
  });

  it('writes every colour’s name beside its swatch, and says "Not stated" for a fact the record lacks', () => {
    const record = tee();
    record.data.decoration_methods = [];
    const panel = markup(keyFactsHtml(viewOf(record)));
    for (const color of record.data.colors)
      expect(panel).toMatch(
        new RegExp(`<span class="swatch" style="background-color:#[0-9a-f]{6}" aria-hidden="true"></span>${color.manufacturer_name}`),
      );
    expect(panel).toMatch(/<div data-fact="decoration"><dt>Decoration<\/dt><dd><span class="not-stated">Not stated<\/span><\/dd><\/div>/);
  });

  it('links each fact row’s evidence to a list of every claim of the row, each line linking to its entry', () => {
    const view = viewOf(tee());
    const panel = markup(keyFactsHtml(view));
    const price = view.keyFacts.rows.find((row) => row.key === 'price')!;
    expect(price.claims.length).toBeGreaterThan(1);
    const link = panel.match(
      /<div data-fact="price"><dt>Price <a href="#([^"]+)" class="claim-ref fact-evidence" data-claims="([\d ]+)">/,
    )!;
    expect(link[2]).toBe(price.claims.map((c) => c.number).join(' '));
    const list = panel.slice(
      panel.indexOf(`<div class="fact-claims" id="${link[1]}"`),
      panel.indexOf('</ol></div>', panel.indexOf(`id="${link[1]}"`)),
    );
    expect(list).toContain('Claims behind Price');
    expect([...list.matchAll(/<a href="#([^"]+)" class="claim-number">(\d+)<\/a>/g)].map((m) => [m[1], Number(m[2])])).toEqual(
      price.claims.map((c) => [c.href.slice(1), c.number]),
    );
  });

  it('gives a panel with no claims of its own (the garment page’s) no evidence links', () => {
    const view = viewOf(tee());
    const panel = markup(keyFactsPanelHtml(view.keyFacts, 'svc-key-facts', 3));
    expect(panel).not.toContain('fact-evidence');
    expect(panel).not.toContain('fact-claims');
  });

  it('links the next step out of the site when it has an address, else writes it as text', () => {
    const panel = (href: string | null) => {
      const facts = {
        rows: [
          {
            key: 'next-step',
            label: 'Next step',
            layout: 'list' as const,
            lines: [{ text: 'Order', detail: null, swatch: null, href, doubt: null, link: null, claims: [] }],
            folded: null,
            claims: [],
          },
        ],
      };
      return markup(keyFactsPanelHtml(facts, 'x-key-facts', 3));
    };
    expect(panel('https://shop.example/order')).toContain(
      '<a href="https://shop.example/order" class="external next-step" rel="noopener noreferrer">Order</a>',
    );
    expect(panel(null)).toContain('<li>Order</li>');
    expect(panel(null)).toContain('<h3 id="x-key-facts-heading">');
  });
});

describe('dataCollectionsHtml', () => {
  it('shows the offers as one table to compare providers, a row per offer anchored as the offer, the price written as money', () => {
    const record = tee();
    const data = markup(dataCollectionsHtml(viewOf(record)));
    const table = data.slice(
      data.indexOf('<table class="offers-table">'),
      data.indexOf('</table>', data.indexOf('<table class="offers-table">')),
    );
    const rows = bodyRows(table);
    expect(rows).toHaveLength(record.data.offers.length);
    for (const offer of record.data.offers) expect(table).toContain(`<tr id="offers-${offer.id}">`);
    const first = record.data.offers[0]!;
    const price = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: first.currency!,
      minimumFractionDigits: first.minor_unit_exponent ?? 2,
    }).format(first.base_amount_minor! / 10 ** (first.minor_unit_exponent ?? 2));
    expect(rows[0]!.join(' ')).toContain(price);
    expect(table).toMatch(
      /<thead><tr><th scope="col">Provider<\/th><th scope="col">Size<\/th><th scope="col">Color<\/th><th scope="col">Price<\/th>/,
    );
  });

  it('lays the variants out as a colour × size grid, a row per colour, each cell the variant’s stock', () => {
    const record = tee();
    const data = markup(dataCollectionsHtml(viewOf(record)));
    const start = data.indexOf('<table class="variant-grid">');
    const grid = data.slice(start, data.indexOf('</table>', start));
    expect(bodyRows(grid)).toHaveLength(new Set(record.data.variants.map((v) => v.color_id)).size);
    for (const variant of record.data.variants) expect(grid).toMatch(new RegExp(`<td id="variants-${variant.id}" class="stock stock--`));
  });

  it('never heads an item with its id: ids are anchors, items are named in words', () => {
    const record = tee();
    const data = markup(dataCollectionsHtml(viewOf(record)));
    for (const collection of ['offers', 'variants', 'provider_variants'] as const) {
      for (const item of record.data[collection]) expect(data).not.toMatch(new RegExp(`<h[1-6][^>]*>[^<]*${item.id}`));
    }
  });

  it('puts every table in a named region that scrolls sideways, its title outside the scrolling box, its CSV link beneath', () => {
    const csv = csvLinker({ slug: 'tee', projection: 'svc' })('size-chart-1', 'Chest <width>');
    const table = markup(scrollingTable({ title: 'Chest <width>', id: 'chart-1' }, 'size-chart', '<tr><th>x</th></tr>', null, csv));
    expect(table).toBe(
      '<p class="table-title" id="chart-1">Chest &lt;width&gt;</p><div class="table-scroll" tabindex="0" role="region" aria-labelledby="chart-1"><table class="size-chart"><thead>&lt;tr&gt;&lt;th&gt;x&lt;/th&gt;&lt;/tr&gt;</thead><tbody></tbody></table></div>' +
        '<p class="table-csv"><a href="/garments/tee/svc/size-chart-1.csv" type="text/csv">Chest &lt;width&gt; as CSV</a></p>',
    );
  });
});

describe('conflictsHtml', () => {
  it('shows a conflict’s values side by side, each with its claim, under what it is about in words', () => {
    const record = tee();
    const view = viewOf(record);
    const conflicts = markup(conflictsHtml(view.conflicts));
    const withValues = view.conflicts.find((c) => c.values.length >= 2)!;
    expect(conflicts).toContain(`<li id="${withValues.anchor}"`);
    const values = conflicts.slice(conflicts.indexOf('<p class="conflict-values">', conflicts.indexOf(`id="${withValues.anchor}"`)));
    expect(values).toMatch(
      new RegExp(
        `^<p class="conflict-values"><span class="conflict-value">${escapeForPattern(withValues.values[0]!.value)}<span class="claim-refs claim-refs--marker">.*?</span></span> vs <span class="conflict-value">`,
      ),
    );
    expect(conflicts).not.toMatch(/<p class="entry-title"><code>/);
  });
});

describe('claimsHtml', () => {
  it('numbers the claims in order, each number its permalink, each saying what it is about', () => {
    const view = viewOf(tee());
    const claims = markup(claimsHtml(view.claims));
    const numbers = [...claims.matchAll(/<li id="(claim-[^"]+)"[^>]*>.*?<a href="#\1"[^>]*>(\d+)<\/a>/g)].map((m) => Number(m[2]));
    expect(numbers).toEqual(view.claims.map((_, i) => i + 1));
    for (const claim of view.claims.slice(0, 5)) expect(claims).toContain(claim.subject.replace(/&/g, '&amp;'));
  });
});

describe('gapsHtml', () => {
  it('groups the gaps by priority, counted, each headed by what is missing in words', () => {
    const view = viewOf(tee());
    const gaps = markup(gapsHtml(view.gapGroups));
    for (const group of view.gapGroups) {
      expect(gaps).toContain(
        `<h3 id="gaps-${group.priority}">${group.label} <span class="count">(${group.gaps.length} gap${group.gaps.length === 1 ? '' : 's'})</span></h3>`,
      );
    }
    expect(gaps).not.toMatch(/<p class="entry-title"><code>/);
  });
});

describe('record text', () => {
  it('is shown as text in every part, never as markup', () => {
    const record = tee();
    const attack = '<img src=x onerror=alert(1)>"\'&';
    record.page.sections.overview[0]!.text = attack;
    record.sources[0]!.title = attack;
    record.data.colors[0]!.manufacturer_name = attack;
    const view = viewOf(record);
    const page = markup([sectionHtml(view.sections[0]!), sourcesHtml(view.sources), keyFactsHtml(view), dataCollectionsHtml(view)]);
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  it('marks a text block with its kind in words and its claims as sorted, merged markers', () => {
    const view = viewOf(tee());
    const block = view.sections.flatMap((s) => s.blocks).find((b) => b.citations.length >= 1)!;
    const paragraph = markup(textBlockHtml(block));
    expect(paragraph).toMatch(
      new RegExp(
        `^<p id="${block.anchor}" class="text-block text-block--${block.kind}"><span class="text-kind">${block.kindLabel}<span class="visually-hidden">:</span></span> <span class="text-body" dir="auto">`,
      ),
    );
    const shown = [...paragraph.matchAll(/class="claim-ref">([\d–]+)<\/a>/g)].map((m) => m[1]!);
    const numbers = shown.flatMap((text) => text.split('–').map(Number));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });
});

function escapeForPattern(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
