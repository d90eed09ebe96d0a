import { transcode } from 'node:buffer';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GarmentRecord } from '../record/types.ts';
import { garmentPageHtml } from '../site/garment-page.ts';
import { recordMarkdown } from '../site/markdown.ts';
import { pageView } from '../site/page-view.ts';
import { publishedJson } from '../site/published-json.ts';
import { recordPageHtml } from '../site/record-page.ts';
import type { GarmentEntries, SiteEntry } from '../site/site-index.ts';
import { entryLinks } from '../site/site-files.ts';
import { garmentPath, jsonPath, markdownPath, pagePath } from '../site/urls.ts';

/** A file of a site: its path on the site and its text, or its bytes. */
export interface SiteFile {
  sitePath: string;
  content: string | Uint8Array;
}

/** What the site publishes of a record, and how it is reached. */
export interface RecordFilesOptions {
  /** The site's absolute address, for `links` and the page's canonical URL. */
  site: string;
  /** The site path of the stylesheet every page links. */
  stylesheet: string;
}

/**
 * A record's files, from one view of it: its page, its JSON twin (the record file's bytes with
 * `links` filled) and its Markdown twin.
 */
export function recordFiles(garment: GarmentEntries, entry: SiteEntry, record: GarmentRecord, source: Uint8Array, { site, stylesheet }: RecordFilesOptions): SiteFile[] {
  const links = entryLinks(garment, entry, site);
  const view = pageView(record, { otherProjectionExists: links.other_projection !== null });
  return [
    { sitePath: `${pagePath(entry.slug, entry.projection)}index.html`, content: recordPageHtml(record, view, links, site, stylesheet) },
    { sitePath: jsonPath(entry.slug, entry.projection), content: publishedJson(source, links) },
    { sitePath: markdownPath(entry.slug, entry.projection), content: recordMarkdown(record, links, view) },
  ];
}

/** A garment's page, /garments/<slug>/, which leads to its records. */
export function garmentFile(slug: string, records: GarmentEntries, { site, stylesheet }: RecordFilesOptions): SiteFile {
  return { sitePath: `${garmentPath(slug)}index.html`, content: garmentPageHtml(slug, records, site, stylesheet) };
}

/** Writes files into a site folder, making their folders. Synchronous: it runs in the record threads, which have nothing else to do meanwhile. */
export function writeSiteFiles(siteDir: string, files: SiteFile[]): void {
  const made = new Set<string>();
  for (const { sitePath, content } of files) {
    const file = path.join(siteDir, ...sitePath.split('/'));
    const folder = path.dirname(file);
    if (!made.has(folder)) mkdirSync(folder, { recursive: true }), made.add(folder);
    writeFileSync(file, typeof content === 'string' ? utf8Bytes(content) : content);
  }
}

/**
 * A text's UTF-8 bytes, as Buffer.from(text) makes them. Record text makes pages two-byte strings,
 * which V8 encodes a character at a time; ICU's transcoder is about five times faster on them.
 */
function utf8Bytes(text: string): Buffer {
  try {
    return transcode(Buffer.from(text, 'utf16le'), 'utf16le', 'utf8');
  } catch {
    // ICU refuses a lone surrogate, which Buffer.from writes as U+FFFD.
    return Buffer.from(text);
  }
}
