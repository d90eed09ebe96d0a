import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GarmentRecord } from '../../../src/lib/record/types.ts';
import { linksFor } from '../../../src/lib/site/links.ts';
import { pageView } from '../../../src/lib/site/page-view.ts';
import { recordPageHtml } from '../../../src/lib/site/record-page.ts';
import { siteEntryOf } from '../../../src/lib/site/site-index.ts';
import { escapeHtml, plainText } from '../../../src/lib/site/text.ts';
import { sampleRecords } from '../../support/records.ts';

const SITE = 'https://garments.example';
const STYLESHEET = '/styles/site.test.css';

function page(record: GarmentRecord): string {
  const links = linksFor(siteEntryOf(record, 'record.json'), SITE, true);
  return recordPageHtml(pageView(record, { otherProjectionExists: true }), links, SITE, STYLESHEET).join('');
}

const hostile = ['svc', 'tech'].map(
  (projection) => JSON.parse(readFileSync(`tests/fixtures/hostile/hostile-tee.${projection}.json`, 'utf8')) as GarmentRecord,
);

describe('recordPageHtml', () => {
  it('makes a whole document: one h1, landmarks, the stylesheet, alternates and canonical address', () => {
    for (const { record } of sampleRecords()) {
      const markup = page(record);
      expect(markup.startsWith('<!DOCTYPE html><html lang="en"><head>')).toBe(true);
      expect(markup.match(/<h1\b/g)).toHaveLength(1);
      for (const landmark of [
        '<header class="site-header">',
        '<main id="main" tabindex="-1">',
        '<footer class="site-footer">',
        '<nav class="contents"',
      ])
        expect(markup).toContain(landmark);
      expect(markup).toContain(`<link rel="stylesheet" href="${STYLESHEET}">`);
      expect(markup).toContain(`<link rel="canonical" href="${SITE}/garments/${record.slug}/${record.projection}/">`);
      expect(markup).toContain(
        `<link rel="alternate" type="application/json" href="${SITE}/garments/${record.slug}/${record.projection}.json">`,
      );
      expect(markup.endsWith('</footer></body></html>')).toBe(true);
    }
  });

  it('lets right-to-left record text run its own way: the title isolated before its claim markers, each text block by its first letters', () => {
    const record = structuredClone(sampleRecords()[0]!.record);
    record.page.title = { ...record.page.title!, text: 'قميص قطني RK-6210' };
    const markup = page(record);
    expect(markup).toMatch(/<h1 id="title"><bdi>قميص قطني RK-6210<\/bdi><span class="claim-refs/);
    expect(markup.match(/<span class="text-body"/g)!.length).toBe(markup.match(/<span class="text-body" dir="auto">/g)!.length);
  });

  it('states the research defaults (market and currency) and the record id among the record facts', () => {
    const record = structuredClone(sampleRecords()[0]!.record);
    record.record_id = 'rec-<42>';
    const markup = page(record);
    expect(markup).toContain('<dt>Research defaults</dt><dd>market US, currency USD</dd>');
    expect(markup).toContain('<dt>Record id</dt><dd><code>rec-&lt;42&gt;</code></dd>');
  });

  it('gives every element its own id, whatever ids the record gives its decisions', () => {
    const record = structuredClone(sampleRecords().find(({ record }) => record.decisions.length > 0)!.record);
    record.decisions = [
      { ...record.decisions[0]!, id: 'x-heading' },
      { ...record.decisions[0]!, id: 'x' },
    ];
    const ids = [...page(record).matchAll(/\sid="([^"]*)"/g)].map((match) => match[1]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('says nothing of the claims in a conflict that names none, rather than show an empty row', () => {
    const record = structuredClone(sampleRecords().find(({ record }) => record.conflicts.length > 0)!.record);
    record.conflicts = [{ ...record.conflicts[0]!, claim_ids: [], selected_claim_id: null }];
    const conflicts = /<section[^>]*id="conflicts"[\s\S]*?<\/section>/.exec(page(record))![0];
    expect(conflicts).not.toContain('Claims in conflict');
    expect(conflicts).not.toMatch(/<dd><\/dd>/);
  });

  it('comes in pieces, a part of the page each, none long enough for V8 to keep apart as a large object', () => {
    for (const { record } of sampleRecords()) {
      const links = linksFor(siteEntryOf(record, 'record.json'), SITE, true);
      const pieces = recordPageHtml(pageView(record, { otherProjectionExists: true }), links, SITE, STYLESHEET);
      // V8 keeps objects over 128 KiB in its large-object space: 2^16 characters of a two-byte string, as record text makes pages.
      expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(2 ** 16);
      expect(pieces.length).toBeGreaterThan(50);
      expect(pieces.every((piece) => piece !== '')).toBe(true);
    }
  });

  it('keeps a collection of hundreds of items in pieces, every item on the page', () => {
    const record = structuredClone(sampleRecords().find(({ record }) => record.projection === 'svc')!.record);
    if (record.projection !== 'svc') throw new Error('a commerce record was expected');
    const offer = record.data.offers[0]!;
    record.data.offers = Array.from({ length: 600 }, (_, i) => ({ ...offer, id: `offer-${i}` }));
    const links = linksFor(siteEntryOf(record, 'record.json'), SITE, true);
    const pieces = recordPageHtml(pageView(record, { otherProjectionExists: true }), links, SITE, STYLESHEET);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(2 ** 16);
    const markup = pieces.join('');
    for (let i = 0; i < 600; i++) expect(markup).toContain(`id="offers-offer-${i}"`);
  });

  it('shows every text block of every section', () => {
    for (const { record } of sampleRecords()) {
      const text = page(record).replace(/<[^>]+>/g, '');
      for (const blocks of Object.values(record.page.sections)) {
        for (const block of blocks) expect(text.includes(escapeHtml(plainText(block.text)))).toBe(true);
      }
    }
  });

  it("shows the page's call to action as written among the key facts, a link only to a web address, and says so when the record has none", () => {
    const calls = sampleRecords().map(({ record }) => [record, page(record)] as const);
    expect(calls.filter(([record]) => record.page.cta_label).length).toBeGreaterThan(0);
    for (const [record, markup] of calls) {
      const row = /<div data-fact="next-step"><dt>Next step<\/dt><dd>(.*?)<\/dd><\/div>/.exec(markup);
      // A technical page says its next step only where the record gives one.
      if (record.projection === 'tech' && !record.page.cta_label && !record.catalog?.launch_url) {
        expect(row).toBeNull();
        continue;
      }
      const nextStep = row![1]!;
      const label = record.page.cta_label;
      const url = record.catalog?.launch_url;
      if (url)
        expect(nextStep).toBe(
          `<ul><li><a href="${escapeHtml(url)}" class="external next-step" rel="noopener noreferrer">${escapeHtml(label ?? 'Go to the product')}</a></li></ul>`,
        );
      else if (label) expect(nextStep).toBe(`<ul><li>${escapeHtml(label)}</li></ul>`);
      else expect(nextStep).toBe('<span class="not-stated">Not stated</span>');
    }
    expect(page(hostile[0]!)).toContain('&lt;script&gt;alert(&quot;cta&quot;)&lt;/script&gt;');
  });

  it('loads the script standing in for a picture that fails only on a page showing a picture', () => {
    const tee = sampleRecords().find(({ record }) => record.slug.includes('tee') && record.projection === 'svc')!.record;
    expect(tee.images.some((image) => image.url?.startsWith('https://'))).toBe(true);
    expect(page(tee)).toContain('<script src="/scripts/images.js" defer></script>');
    const pictureless = structuredClone(tee);
    pictureless.images = [];
    expect(page(pictureless)).not.toContain('/scripts/images.js');
  });

  it("lets no hostile record text become markup: the site's own scripts (the pictures' one with a picture) and the JSON-LD, no event handlers, no javascript: or data: addresses", () => {
    for (const record of hostile) {
      const markup = page(record);
      expect([...markup.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
        ...(markup.includes('<img class="lead-image garment-image"') ? ['<script src="/scripts/images.js" defer>'] : []),
        '<script type="application/ld+json">',
        '<script src="/scripts/record-page.js" defer>',
      ]);
      const tags = [...markup.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[\w-]+(?:="[^"]*")?)*)\s*>/g)];
      for (const [, name, attributes] of tags) {
        expect(['iframe', 'object', 'embed', 'svg', 'math', 'style', 'form', 'base']).not.toContain(name!.toLowerCase());
        for (const [, attribute, value = ''] of attributes!.matchAll(/\s([\w-]+)(?:="([^"]*)")?/g)) {
          expect(attribute).not.toMatch(/^on/i);
          if (attribute === 'href' || attribute === 'src') expect(value).not.toMatch(/^\s*(javascript|data|vbscript):/i);
        }
      }
      // Outside tags and the JSON-LD, no markup character is left unescaped.
      const text = markup
        .replace(/<script type="application\/ld\+json">[\s\S]*?<\/script>/, '')
        .replace(/<\/?[a-zA-Z][\w-]*(?:\s+[\w-]+(?:="[^"]*")?)*\s*>|<!DOCTYPE html>/g, '');
      expect(text).not.toMatch(/[<>]/);
    }
  });
});
