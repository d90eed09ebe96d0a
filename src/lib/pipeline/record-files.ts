import { copyFileSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GarmentRecord } from '../record/types.ts';
import { garmentPageHtml } from '../site/garment-page.ts';
import { keyFacts, type KeyFacts } from '../site/key-facts.ts';
import { recordMarkdown } from '../site/markdown.ts';
import { pageView } from '../site/page-view.ts';
import { publishedJson } from '../site/published-json.ts';
import { recordPageHtml } from '../site/record-page.ts';
import type { GarmentEntries, SiteEntry } from '../site/site-index.ts';
import { entryLinks } from '../site/site-files.ts';
import { csvText } from '../site/csv.ts';
import { pageTables } from '../site/table-csv.ts';
import { csvPath, garmentPath, jsonPath, markdownPath, pagePath } from '../site/urls.ts';
import { feedLinksHtml } from '../revisions/feeds.ts';
import { asPublished, recordRevisions } from '../revisions/record-revisions.ts';
import { revisionFiles } from '../revisions/revision-pages.ts';
import type { FileLink, RevisionView } from '../revisions/revision-view.ts';

/** A file of a site: its path on the site and its text, whole or in pieces (see markupPieces), its bytes, or a link to bytes on disk already. */
export interface SiteFile {
  sitePath: string;
  content: string | readonly string[] | Uint8Array | { linkTo: FileLink };
}

/** What the site publishes of a record, and how it is reached. */
export interface RecordFilesOptions {
  /** The site's absolute address, for `links` and the page's canonical URL. */
  site: string;
  /** The site path of the stylesheet every page links. */
  stylesheet: string;
  /** The day the pages are built, ISO (a citation's access date); today by default. */
  builtOn?: string;
}

/**
 * A record's files, from one view of it: its page, its JSON twin (the record file's bytes with
 * `links` filled), its Markdown twin, a CSV of each of its page's tables, and its revisions' history,
 * JSON and pages (`revisions`: see recordRevisions; by default it is its only one); `facts` are its
 * key facts, when read already.
 */
export function recordFiles(
  garment: GarmentEntries,
  entry: SiteEntry,
  record: GarmentRecord,
  source: Uint8Array,
  { site, stylesheet, builtOn = new Date().toISOString().slice(0, 10) }: RecordFilesOptions,
  facts: KeyFacts = keyFacts(record),
  revisions: readonly RevisionView[] = recordRevisions(undefined, record, source),
): SiteFile[] {
  const links = entryLinks(garment, entry, site);
  const view = pageView(record, { otherProjectionExists: links.other_projection !== null, facts });
  const published = publishedJson(source, links);
  const shown = { number: revisions.length, count: revisions.length, accessed: builtOn };

  return [
    {
      sitePath: `${pagePath(entry.slug, entry.projection)}index.html`,
      content: recordPageHtml(view, links, site, stylesheet, shown),
    },
    { sitePath: jsonPath(entry.slug, entry.projection), content: published },
    { sitePath: markdownPath(entry.slug, entry.projection), content: recordMarkdown(view, links) },
    ...pageTables(view).map((table) => ({
      sitePath: csvPath(entry.slug, entry.projection, table.name),
      content: csvText(table.header, table.rows()),
    })),
    ...revisionFiles(asPublished(revisions, source, published, jsonPath(entry.slug, entry.projection)), {
      record,
      site,
      stylesheet,
      moreHead: feedLinksHtml(record.slug),
    }),
  ];
}

/** A garment's page, /garments/<slug>/: the garment, and each record's key facts with a link to its page. */
export function garmentFile(
  slug: string,
  entries: GarmentEntries,
  facts: readonly KeyFacts[],
  { site, stylesheet }: RecordFilesOptions,
): SiteFile {
  return { sitePath: `${garmentPath(slug)}index.html`, content: garmentPageHtml(slug, entries, facts, site, stylesheet) };
}

/**
 * Writes files into a site folder, making their folders. Synchronous: it runs in the record threads, which have nothing else to do meanwhile.
 * A text given whole that an earlier file of the call holds already is linked to it: a garment's two records often show the same tables
 * (size charts, colours), and a link costs the file system no new file.
 */
export function writeSiteFiles(siteDir: string, files: SiteFile[]): void {
  const made = new Set<string>();
  const written = new Map<string, string>();
  const onDisk = (sitePath: string) => path.join(siteDir, ...sitePath.split('/'));
  for (const { sitePath, content } of files) {
    const file = onDisk(sitePath);
    const folder = path.dirname(file);
    if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    if (typeof content === 'string') {
      const same = written.get(content);
      if (same === undefined) {
        writeFileSync(file, utf8Bytes([content]));
        written.set(content, file);
      } else linkOrCopy(same, file);
    } else if (content instanceof Uint8Array) writeFileSync(file, content);
    else if ('linkTo' in content) linkOrCopy('file' in content.linkTo ? content.linkTo.file : onDisk(content.linkTo.sitePath), file);
    else writeFileSync(file, utf8Bytes(content));
  }
}

/** The same bytes without writing them again: a hard link, or a copy where the file system cannot link (another device, say). */
function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

const encoder = new TextEncoder();
/** Where text is encoded, reused from file to file: a page's bytes need no fresh memory of their own. */
let encoded = new Uint8Array(1 << 20);

/**
 * The UTF-8 bytes of text pieces written one after another (a lone surrogate as U+FFFD, as
 * Buffer.from writes it), valid until the next call. Pieces split text between characters.
 */
function utf8Bytes(pieces: readonly string[]): Uint8Array {
  let length = 0;
  for (const piece of pieces) {
    // UTF-8 takes at most three bytes for each UTF-16 code unit.
    if (encoded.length - length < piece.length * 3) {
      const larger = new Uint8Array(Math.max(encoded.length * 2, length + piece.length * 3));
      larger.set(encoded.subarray(0, length));
      encoded = larger;
    }
    length += encoder.encodeInto(piece, encoded.subarray(length)).written;
  }
  return encoded.subarray(0, length);
}
