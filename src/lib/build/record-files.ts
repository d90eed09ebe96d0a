import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GarmentRecord } from '../record/types.ts';
import { garmentPageHtml } from '../site/garment-page.ts';
import { publishedRecord } from '../site/links.ts';
import { recordMarkdown } from '../site/markdown.ts';
import { pageView } from '../site/page-view.ts';
import { recordPageHtml } from '../site/record-page.ts';
import type { GarmentEntries, SiteEntry } from '../site/site-index.ts';
import { entryLinks, jsonFile } from '../site/site-files.ts';
import { garmentPath, jsonPath, markdownPath, pagePath } from '../site/urls.ts';

/** A file of a site: its path on the site and its text. */
export interface SiteFile {
  sitePath: string;
  text: string;
}

/** What the site publishes of a record, and how it is reached. */
export interface RecordFilesOptions {
  /** The site's absolute address, for `links` and the page's canonical URL. */
  site: string;
  /** The site path of the stylesheet every page links. */
  stylesheet: string;
}

/**
 * A record's files, from one view of it: its page, its JSON twin (the record with `links`
 * filled) and its Markdown twin.
 */
export function recordFiles(garment: GarmentEntries, entry: SiteEntry, record: GarmentRecord, { site, stylesheet }: RecordFilesOptions): SiteFile[] {
  const links = entryLinks(garment, entry, site);
  const view = pageView(record, { otherProjectionExists: links.other_projection !== null });
  return [
    { sitePath: `${pagePath(entry.slug, entry.projection)}index.html`, text: recordPageHtml(record, view, links, site, stylesheet) },
    { sitePath: jsonPath(entry.slug, entry.projection), text: jsonFile(publishedRecord(record, links)) },
    { sitePath: markdownPath(entry.slug, entry.projection), text: recordMarkdown(record, links, view) },
  ];
}

/** A garment's page, /garments/<slug>/, which leads to its records. */
export function garmentFile(slug: string, records: GarmentEntries, { site, stylesheet }: RecordFilesOptions): SiteFile {
  return { sitePath: `${garmentPath(slug)}index.html`, text: garmentPageHtml(slug, records, site, stylesheet) };
}

/** Writes files into a site folder, making their folders. Synchronous: it runs in the record threads, which have nothing else to do meanwhile. */
export function writeSiteFiles(siteDir: string, files: SiteFile[]): void {
  const made = new Set<string>();
  for (const { sitePath, text } of files) {
    const file = path.join(siteDir, ...sitePath.split('/'));
    const folder = path.dirname(file);
    if (!made.has(folder)) mkdirSync(folder, { recursive: true }), made.add(folder);
    writeFileSync(file, text);
  }
}
