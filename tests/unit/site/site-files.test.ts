import { describe, expect, it } from 'vitest';
import { indexEntries, siteEntryOf } from '../../../src/lib/site/site-index.ts';
import {
  entryLinks,
  jsonFile,
  jsonForPage,
  llmsTxtPieces,
  MissingSiteError,
  recordsIndex,
  siteOf,
  sitemapIndexXml,
  sitemapPages,
  sitemapParts,
  sitemapXml,
  SITEMAP_URLS,
} from '../../../src/lib/site/site-files.ts';
import { copyOf, sampleRecords } from '../../support/records.ts';

const SITE = 'https://garments.example.org';
const samples = sampleRecords();
const index = indexEntries(samples.map(({ file, record }) => siteEntryOf(record, file)));
// A garment published in one projection only, with a title that needs escaping.
const lone = copyOf(samples.find((s) => s.record.projection === 'tech')!.record);
lone.slug = 'lone-garment';
lone.page.title = { text: 'Lone [tech] & <only>', claim_ids: ['x'], kind: 'fact' } as never;
const withLone = indexEntries([...index.entries, siteEntryOf(lone, 'lone.json')]);

describe('entryLinks', () => {
  it('links the other projection only when it is published', () => {
    const loneEntry = withLone.entries.find((e) => e.slug === 'lone-garment')!;
    expect(entryLinks(withLone.garments.get(loneEntry.slug)!, loneEntry, SITE).other_projection).toBeNull();
    for (const entry of index.entries) expect(entryLinks(index.garments.get(entry.slug)!, entry, SITE).other_projection).toMatch(/\.json$/);
  });
});

describe('recordsIndex', () => {
  it('lists every record with its identity, revision, status and links', () => {
    const body = recordsIndex(index, SITE);
    expect(body.count).toBe(samples.length);
    expect(body.schema).toBe(`${SITE}/schema/garment-access-2.4.0.json`);
    expect(body.records.map((r) => `${r.slug}/${r.projection}`).sort()).toEqual(
      samples.map((s) => `${s.record.slug}/${s.record.projection}`).sort(),
    );
    const tee = body.records.find((r) => r.slug === samples[0]!.record.slug && r.projection === samples[0]!.record.projection)!;
    const record = samples[0]!.record;
    expect(tee).toEqual({
      slug: record.slug,
      projection: record.projection,
      title: expect.any(String),
      category: record.data.identity.category,
      brand: record.data.identity.brand,
      record_revision: record.record_revision,
      published_at: record.published_at,
      research_status: record.research.status,
      links: entryLinks(
        index.garments.get(record.slug)!,
        index.entries.find((e) => e.slug === record.slug && e.projection === record.projection)!,
        SITE,
      ),
      revision_count: 1,
      last_change: {
        revision: 1,
        published_at: record.published_at,
        summary: 'First published',
        changes: `${SITE}/garments/${record.slug}/${record.projection}/revisions/1/`,
        json: `${SITE}/garments/${record.slug}/${record.projection}/revisions/1.json`,
      },
    });
  });
});

describe('jsonFile', () => {
  it('writes 2-space JSON with a trailing newline', () => {
    expect(jsonFile({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });
});

describe('jsonForPage', () => {
  it('writes what HTML forbids in a page and bidirectional formatting as escapes, so the JSON shown means the same', () => {
    const value = { title: 'a\u0001\u007F\u0085\uFDD0\uFFFF\u202Eb', note: 'é <b>' };
    const text = jsonForPage(value);
    expect(text).toBe('{\n  "title": "a\\u0001\\u007f\\u0085\\ufdd0\\uffff\\u202eb",\n  "note": "é <b>"\n}\n');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('llmsTxtPieces', () => {
  const text = [...llmsTxtPieces(withLone, SITE)].join('');

  it('follows the llms.txt layout: title, summary quote, then sections of link lines', () => {
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines[2]).toMatch(/^> \S/);
    const h2 = lines.filter((l) => l.startsWith('#')).slice(1);
    expect(h2).toEqual(['## Records', '## Docs']);
    const items = lines.filter((l) => l.startsWith('- '));
    for (const item of items) expect(item).toMatch(/^- \[[^\n]+\]\(https:\/\/[^\s)]+\)(: .+)?$/);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('lists every Markdown twin, the docs, the schema and records.json', () => {
    for (const entry of withLone.entries) expect(text).toContain(`(${SITE}/garments/${entry.slug}/${entry.projection}.md)`);
    for (const path of ['/docs/api/', '/docs/webhooks/', '/docs/mcp/', '/schema/garment-access-2.4.0.json', '/records.json'])
      expect(text).toContain(`(${SITE}${path})`);
  });

  it('escapes record text, so a title cannot add Markdown or HTML', () => {
    expect(text).toContain('- [Lone \\[tech\\] & \\<only> (Technical)]');
  });
});

describe('sitemapPages', () => {
  const routes = [
    './index.astro',
    './404.astro',
    './garments/[slug]/index.astro',
    './docs/api.astro',
    './docs/webhooks/index.astro',
    './search.astro',
    './things/[...rest].astro',
  ];

  it('lists static pages, every garment page and every record page; not 404 or dynamic routes', () => {
    const paths = sitemapPages(routes, index).map((p) => p.path);
    const garments = [...new Set(samples.map((s) => s.record.slug))];
    expect(paths.sort()).toEqual(
      [
        '/',
        '/docs/api/',
        '/docs/webhooks/',
        '/search/',
        ...garments.map((slug) => `/garments/${slug}/`),
        ...samples.flatMap(({ record }) => [
          `/garments/${record.slug}/${record.projection}/`,
          `/garments/${record.slug}/${record.projection}/revisions/`,
          `/garments/${record.slug}/${record.projection}/revisions/1/`,
        ]),
      ].sort(),
    );
  });

  it('lists the category pages of a site too large for the home page to list every garment', () => {
    const many = indexEntries(
      Array.from({ length: 450 }, (_, i) => ({ ...index.entries[0]!, slug: `g-${i}`, category: i % 2 ? 'tops' : 'outerwear' })),
    );
    const paths = sitemapPages([], many).map((p) => p.path);
    expect(paths.filter((p) => p.startsWith('/categories/'))).toEqual([
      '/categories/outerwear/',
      '/categories/outerwear/2/',
      '/categories/tops/',
      '/categories/tops/2/',
    ]);
    expect(sitemapPages([], index).some((p) => p.path.startsWith('/categories/'))).toBe(false);
  });

  it('dates record pages by their publication when it is an ISO date, in UTC', () => {
    const page = sitemapPages([], index).find((p) => p.path === `/garments/${index.entries[0]!.slug}/${index.entries[0]!.projection}/`)!;
    expect(page.lastmod).toBe(new Date(index.entries[0]!.publishedAt).toISOString());
  });

  it.each(['2026-02-30', '2026-13-45', '2026-11-18T1Z', '2026-02-30T25:99:99Z', 'yesterday'])(
    'leaves out the date of a record published at %j, which no calendar has',
    (publishedAt) => {
      const entry = { ...index.entries[0]!, publishedAt };
      const page = sitemapPages([], indexEntries([entry])).find((p) => p.path === `/garments/${entry.slug}/${entry.projection}/`)!;
      expect(page).not.toHaveProperty('lastmod');
    },
  );
});

describe('sitemapXml', () => {
  it('writes absolute, XML-escaped URLs', () => {
    const xml = sitemapXml([{ path: '/' }, { path: '/a&b/', lastmod: '2026-01-02' }], 'https://example.org/press/');
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        '  <url><loc>https://example.org/press/</loc></url>',
        '  <url><loc>https://example.org/press/a&amp;b/</loc><lastmod>2026-01-02</lastmod></url>',
        '</urlset>',
        '',
      ].join('\n'),
    );
  });
});

describe('sitemapParts and sitemapIndexXml', () => {
  const pages = (count: number) => Array.from({ length: count }, (_, i) => ({ path: `/p${i}/` }));

  it('keeps a site of up to 50,000 pages in one sitemap, as the protocol allows', () => {
    expect(SITEMAP_URLS).toBe(50_000);
    expect(sitemapParts(pages(3))).toEqual([pages(3)]);
    expect(sitemapParts([])).toEqual([[]]);
  });

  it('splits a larger site into parts in order, none over the limit, listed by an index', () => {
    const parts = sitemapParts(pages(5), 2);
    expect(parts.map((part) => part.map((p) => p.path))).toEqual([['/p0/', '/p1/'], ['/p2/', '/p3/'], ['/p4/']]);
    expect(sitemapIndexXml(parts.length, 'https://example.org/')).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        '  <sitemap><loc>https://example.org/sitemap-1.xml</loc></sitemap>',
        '  <sitemap><loc>https://example.org/sitemap-2.xml</loc></sitemap>',
        '  <sitemap><loc>https://example.org/sitemap-3.xml</loc></sitemap>',
        '</sitemapindex>',
        '',
      ].join('\n'),
    );
  });
});

describe('siteOf', () => {
  it('refuses to build links without a site address', () => {
    expect(() => siteOf(undefined)).toThrow(MissingSiteError);
    expect(siteOf(new URL(SITE)).href).toBe(`${SITE}/`);
  });
});
