import { GarmentPressError } from '../errors.ts';
import { ASTRAL_NONCHARACTER, BIDI_FORMATTING, FORBIDDEN_IN_HTML } from '../unicode.ts';
import { csvRows } from './csv.ts';
import { SCHEMA_VERSION, type Links } from '../record/types.ts';
import { researchStatusLabel } from './format.ts';
import { isoDate } from '../record/timestamp.ts';
import { categoryPages } from './index-view.ts';
import { linksFor } from './links.ts';
import { jsonEscapes } from './json-ld.ts';
import { escapeData } from './markdown-text.ts';
import type { GarmentEntries, SiteEntry, SiteIndex } from './site-index.ts';
import { projectionLabel, t } from './strings.ts';
import {
  absoluteUrl,
  API_DOCS_PATH,
  garmentPath,
  MCP_DOCS_PATH,
  otherProjection,
  pagePath,
  revisionJsonPath,
  revisionPath,
  revisionsPath,
  SCHEMA_PATH,
  SITEMAP_PATH,
  WEBHOOK_DOCS_PATH,
} from './urls.ts';

/** The site has no absolute address, so `links` cannot be filled. */
export class MissingSiteError extends GarmentPressError {}

/** Astro's `site` setting, which every absolute URL starts with; a build without it cannot fill `links`. */
export function siteOf(site: URL | undefined): URL {
  if (!site) throw new MissingSiteError('the site address is not set: set SITE_URL or pass --site <url> to npm run build');
  return site;
}

/** The `links` of the record behind an entry of a garment: `other_projection` only when the garment has that record. */
export function entryLinks(garment: GarmentEntries, entry: SiteEntry, site: string | URL): Links {
  return linksFor(entry, site, Boolean(garment[otherProjection(entry.projection)]));
}

/** One record in /records.json. */
export interface RecordsIndexEntry {
  slug: string;
  projection: SiteEntry['projection'];
  title: string;
  category: string | null;
  brand: string | null;
  record_revision: string;
  published_at: string;
  research_status: SiteEntry['researchStatus'];
  links: Links;
  /** How many revisions the site keeps of the record (src/lib/revisions/), and the last one's change. */
  revision_count: number;
  last_change: { revision: number; published_at: string | null; summary: string; changes: string; json: string };
}

/** The body of /records.json: every published record, so a program can mirror the site without scraping. */
export function recordsIndex(index: SiteIndex, site: string | URL) {
  const records = index.entries.map((entry) => recordsIndexEntry(index, entry, site));
  return { ...recordsIndexHead(index, site), records };
}

/** How many records a piece of a streamed file (records.json, records.csv, llms.txt) holds at most. */
export const RECORDS_PER_PIECE = 500;

/**
 * /records.json in pieces, a batch of records each: joined, exactly `jsonFile(recordsIndex(index, site))`, with
 * no string holding every record (V8's longest string is about 537 million characters, some 345,000 records here).
 */
export function* recordsJsonPieces(index: SiteIndex, site: string | URL): Generator<string> {
  const head = jsonFile({ ...recordsIndexHead(index, site), records: [] });
  const { entries } = index;
  if (entries.length === 0) {
    yield head;
    return;
  }
  // `"records": []\n}\n` ends the head: the records go between the brackets, each indented as jsonFile indents them there.
  yield head.slice(0, head.lastIndexOf('[') + 1);
  let separator = '';
  for (const batch of batches(entries)) {
    let piece = '';
    for (const entry of batch) {
      piece += `${separator}\n    ${JSON.stringify(recordsIndexEntry(index, entry, site), null, 2).replaceAll('\n', '\n    ')}`;
      separator = ',';
    }
    yield piece;
  }
  yield '\n  ]\n}\n';
}

/** records.json's fields before its records. */
function recordsIndexHead(index: SiteIndex, site: string | URL) {
  return {
    schema_version: SCHEMA_VERSION,
    schema: absoluteUrl(SCHEMA_PATH, site),
    api_docs: absoluteUrl(API_DOCS_PATH, site),
    count: index.entries.length,
  };
}

/** One record of records.json. */
function recordsIndexEntry(index: SiteIndex, entry: SiteEntry, site: string | URL): RecordsIndexEntry {
  return {
    slug: entry.slug,
    projection: entry.projection,
    title: entry.title,
    category: entry.category,
    brand: entry.brand,
    record_revision: entry.recordRevision,
    published_at: entry.publishedAt,
    research_status: entry.researchStatus,
    links: entryLinks(index.garments.get(entry.slug)!, entry, site),
    revision_count: entry.revisions.count,
    last_change: lastChange(entry, site),
  };
}

/** The items in runs of RECORDS_PER_PIECE, in order. */
function* batches<T>(items: readonly T[]): Generator<T[]> {
  for (let start = 0; start < items.length; start += RECORDS_PER_PIECE) yield items.slice(start, start + RECORDS_PER_PIECE);
}

/** The columns of /records.csv: records.json's fields, and the record's three addresses. */
const RECORDS_CSV_COLUMNS = [
  'slug',
  'projection',
  'title',
  'category',
  'brand',
  'record_revision',
  'published_at',
  'research_status',
  'page',
  'json',
  'markdown',
] as const;

/**
 * /records.csv in pieces: the header row, then a batch of records' rows each (RECORDS_PER_PIECE), a row per record,
 * for a spreadsheet; joined, the whole table, with no string holding every record.
 */
export function* recordsCsvPieces(index: SiteIndex, site: string | URL): Generator<string> {
  yield csvRows([RECORDS_CSV_COLUMNS]);
  for (const batch of batches(index.entries)) {
    yield csvRows(
      batch.map((entry) => {
        const record = recordsIndexEntry(index, entry, site);
        const values: Record<(typeof RECORDS_CSV_COLUMNS)[number], string | null> = {
          ...record,
          page: record.links.page,
          json: record.links.json,
          markdown: record.links.markdown,
        };
        return RECORDS_CSV_COLUMNS.map((column) => values[column] ?? '');
      }),
    );
  }
}

/** A record's latest revision for records.json: its number, date and summary, and the addresses of its changes and its JSON. */
function lastChange(entry: SiteEntry, site: string | URL): RecordsIndexEntry['last_change'] {
  const last = entry.revisions.revisions.at(-1)!;
  return {
    revision: last.number,
    published_at: last.publishedAt,
    summary: last.summary,
    changes: absoluteUrl(revisionPath(entry.slug, entry.projection, last.number), site),
    json: absoluteUrl(revisionJsonPath(entry.slug, entry.projection, last.number), site),
  };
}

/** JSON as the site publishes it: 2-space indent, trailing newline. */
export function jsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * JSON as a page shows it (a documentation example): jsonFile with the characters HTML forbids and
 * bidirectional formatting written as JSON escapes, so the page stays valid and reads in order; the JSON means the same.
 * @example jsonForPage({ title: 'a\uFFFF' }) → '{\n  "title": "a\\uffff"\n}\n'
 */
export function jsonForPage(value: unknown): string {
  return jsonFile(value).replace(NOT_SHOWN_IN_JSON, jsonEscapes);
}

const NOT_SHOWN_IN_JSON = new RegExp(`[${FORBIDDEN_IN_HTML}${BIDI_FORMATTING}]|${ASTRAL_NONCHARACTER}`, 'g');

/**
 * /llms.txt after the llms.txt convention: `# name`, `> summary`, then `## sections` of
 * `- [name](url): notes` lines. Every record's Markdown twin is listed, then the docs. In pieces: the
 * head, a batch of records' lines each (RECORDS_PER_PIECE), then the docs; joined, the whole file.
 */
export function* llmsTxtPieces(index: SiteIndex, site: string | URL): Generator<string> {
  const url = (sitePath: string) => absoluteUrl(sitePath, site);
  // Record text is untrusted: names and notes are escaped so a title cannot add Markdown or HTML.
  const item = (name: string, href: string, notes: string) => `- [${escapeData(name)}](${href}): ${escapeData(notes)}`;
  const record = (entry: SiteEntry) => {
    const links = entryLinks(index.garments.get(entry.slug)!, entry, site);
    const projection = projectionLabel(entry.projection);
    const notes = [
      t('llms.record.kind', { projection }),
      [entry.brand, entry.category].filter(Boolean).join(', '),
      t('llms.record.status', { status: researchStatusLabel(entry.researchStatus).toLowerCase() }),
      t('llms.record.revision', { revision: entry.recordRevision }),
      entry.description,
    ]
      .filter(Boolean)
      .join('; ');
    return item(t('llms.record.name', { title: entry.title, projection }), links.markdown!, notes);
  };
  const doc = (key: 'api' | 'webhooks' | 'mcp' | 'schema' | 'records', href: string) =>
    item(t(`llms.docs.${key}`, { schema: SCHEMA_VERSION }), url(href), t(`llms.docs.${key}.notes`));
  yield [
    `# ${t('site.name')}`,
    `> ${t('llms.summary', { tagline: t('site.tagline'), schema: SCHEMA_VERSION })}`,
    t('llms.about'),
    `## ${t('llms.records')}`,
    '',
  ].join('\n\n');
  if (index.entries.length === 0) yield t('index.empty');
  let separator = '';
  for (const batch of batches(index.entries)) {
    yield separator + batch.map(record).join('\n');
    separator = '\n';
  }
  yield `\n\n${[
    `## ${t('llms.docs')}`,
    [
      doc('api', API_DOCS_PATH),
      doc('webhooks', WEBHOOK_DOCS_PATH),
      doc('mcp', MCP_DOCS_PATH),
      doc('schema', SCHEMA_PATH),
      doc('records', '/records.json'),
    ].join('\n'),
  ].join('\n\n')}\n`;
}

/** A page of the sitemap: a site path, and the date it last changed when known. */
export interface SitemapPage {
  path: string;
  lastmod?: string;
}

/**
 * The site paths of the HTML pages: the static routes among the route files under src/pages
 * (relative names such as `./docs/api.astro`), then every garment's page and every record's page.
 * Endpoints (`.ts`), 404 and dynamic routes are left out.
 */
export function sitemapPages(routeFiles: string[], index: SiteIndex): SitemapPage[] {
  const pages: SitemapPage[] = [];
  for (const file of [...routeFiles].sort()) {
    const route = file
      .replace(/^\.\//, '')
      .replace(/\.(astro|md|mdx|html)$/, '')
      .replace(/(^|\/)index$/, '');
    if (route === '404' || route === '500' || route.split('/').some((part) => part.startsWith('_'))) continue;
    if (!route.includes('[')) {
      pages.push({ path: route === '' ? '/' : `/${route}/` });
    }
  }
  // Pages of dynamic routes: the category listings of a large site.
  // The listings by name: the same garments in another order are no other page.
  for (const listing of categoryPages(index)) if (listing.sort === 'name') pages.push({ path: listing.path });
  // Garment and record pages are written beside Astro's routes (src/lib/pipeline/record-files.ts).
  for (const slug of [...index.garments.keys()].sort()) pages.push({ path: garmentPath(slug) });
  for (const entry of index.entries) {
    const lastmod = lastmodOf(entry.publishedAt);
    pages.push(lastmod ? { path: pagePath(entry.slug, entry.projection), lastmod } : { path: pagePath(entry.slug, entry.projection) });
    // Its history, and what each revision changed (src/lib/revisions/revision-pages.ts).
    pages.push({ path: revisionsPath(entry.slug, entry.projection) });
    for (const { number, publishedAt } of entry.revisions.revisions) {
      const changed = publishedAt === null ? undefined : lastmodOf(publishedAt);
      const path = revisionPath(entry.slug, entry.projection, number);
      pages.push(changed ? { path, lastmod: changed } : { path });
    }
  }
  return pages;
}

/** A W3C datetime for <lastmod>, or undefined when the record's timestamp is not a real ISO date. */
function lastmodOf(publishedAt: string): string | undefined {
  return isoDate(publishedAt) ?? undefined;
}

/** The most URLs one sitemap may list (sitemaps.org); a larger site's /sitemap.xml is an index of parts. */
export const SITEMAP_URLS = 50_000;

/** The pages in sitemaps of at most `perPart` URLs each, in order; one part for a small site. */
export function sitemapParts(pages: SitemapPage[], perPart = SITEMAP_URLS): SitemapPage[][] {
  const parts: SitemapPage[][] = [];
  for (let start = 0; start < pages.length; start += perPart) parts.push(pages.slice(start, start + perPart));
  return parts.length > 0 ? parts : [[]];
}

/** The site path of the n-th part (from 1) of a sitemap split in parts. */
function sitemapPartPath(part: number): string {
  return `/sitemap-${part}.xml`;
}

/** /robots.txt: every page may be crawled, and the sitemap says where they are. */
export function robotsTxt(site: string | URL): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(SITEMAP_PATH, site)}\n`;
}

/** A sitemap index listing `parts` parts, with absolute URLs. */
export function sitemapIndexXml(parts: number, site: string | URL): string {
  const sitemaps = Array.from(
    { length: parts },
    (_, i) => `  <sitemap><loc>${escapeXml(absoluteUrl(sitemapPartPath(i + 1), site))}</loc></sitemap>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...sitemaps,
    '</sitemapindex>',
    '',
  ].join('\n');
}

/** A sitemap of the given pages, with absolute, XML-escaped URLs. */
export function sitemapXml(pages: SitemapPage[], site: string | URL): string {
  const urls = pages.map(({ path, lastmod }) => {
    const loc = `<loc>${escapeXml(absoluteUrl(path, site))}</loc>`;
    return `  <url>${loc}${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ''}</url>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch]!);
}
