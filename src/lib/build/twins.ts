import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { GarmentRecord } from '../record/types.ts';
import { publishedRecord } from '../site/links.ts';
import { recordMarkdown } from '../site/markdown.ts';
import type { SiteEntry, SiteIndex } from '../site/site-index.ts';
import { entryLinks, jsonFile } from '../site/site-files.ts';
import { garmentPath, jsonPath, markdownPath } from '../site/urls.ts';

/** A file of a site: its path on the site and its text. */
export interface TwinFile {
  sitePath: string;
  text: string;
}

/** A record's JSON twin (the record with `links` filled) and Markdown twin, as the site publishes them. */
export function twinFiles(index: SiteIndex, entry: SiteEntry, record: GarmentRecord, site: string): TwinFile[] {
  const links = entryLinks(index, entry, site);
  return [
    { sitePath: jsonPath(entry.slug, entry.projection), text: jsonFile(publishedRecord(record, links)) },
    { sitePath: markdownPath(entry.slug, entry.projection), text: recordMarkdown(record, links) },
  ];
}

/** Writes twin files into a site folder, beside the record's page under `garments/<slug>/`. */
export async function writeTwinFiles(siteDir: string, slug: string, files: TwinFile[]): Promise<void> {
  const file = (sitePath: string) => path.join(siteDir, ...sitePath.split('/'));
  await mkdir(file(garmentPath(slug)), { recursive: true });
  await Promise.all(files.map(({ sitePath, text }) => writeFile(file(sitePath), text)));
}
