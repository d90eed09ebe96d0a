// The built site as the MCP tools and resources read it: /records.json for the list of records,
// and each record's JSON and Markdown twins. Read from the output folder on each call (records.json
// parsed again only when it changed), so a rebuilt site swapped into place is what they see.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { GarmentPressError } from '../errors.ts';
import { isProjection, type Projection } from '../record/projections.ts';
import { isSlug } from '../record/slug.ts';
import { absoluteUrl, jsonPath, markdownPath, revisionJsonPath, revisionsPath } from '../site/urls.ts';

/** One record as /records.json lists it. */
export interface PublishedRecord {
  slug: string;
  projection: Projection;
  title: string;
  category: string;
  brand: string;
  record_revision: string;
  published_at: string;
  research_status: string;
  links: Record<string, string | null>;
  /** How many revisions the site keeps (absent from sites built before revisions were kept). */
  revision_count?: number;
}

/** A twin's format: the record's JSON as published, or its Markdown. */
export type TwinFormat = 'json' | 'markdown';

/** The media type each twin is served with. */
export const TWIN_MEDIA_TYPES: Record<TwinFormat, string> = { json: 'application/json', markdown: 'text/markdown' };

/** A twin read from the site. */
export interface Twin {
  /** Its absolute address on the site, also its MCP resource URI. */
  url: string;
  mimeType: string;
  text: string;
}

/** The built site in an output folder. */
export interface PublishedSite {
  /** The site's absolute address, as the build wrote it into every record's links. */
  site(): Promise<string>;
  /** Every record /records.json lists, in its order (by title). */
  records(): Promise<PublishedRecord[]>;
  /** A record's twin, or undefined when the site has no such record. */
  readTwin(slug: string, projection: Projection, format: TwinFormat): Promise<Twin | undefined>;
  /** Revision `number` of a record, its JSON as published then, or undefined when the site has no such revision. */
  readRevision(slug: string, projection: Projection, number: number): Promise<Twin | undefined>;
  /** A record's revisions as its history lists them (revisions/index.json), or undefined when the site has no such record. */
  readRevisions(slug: string, projection: Projection): Promise<Record<string, unknown> | undefined>;
}

/** Thrown when the folder holds no built site (yet); the message names no server path, as callers read it. */
export class SiteUnavailableError extends GarmentPressError {}

interface RecordsFile {
  schema: string;
  records: PublishedRecord[];
}

/** The site built into `outDir`; `site` overrides the address read from /records.json. */
export function openPublishedSite(outDir: string, site?: string): PublishedSite {
  const recordsFile = path.join(outDir, 'records.json');
  let cached: { version: string; file: RecordsFile } | undefined;

  const readRecordsFile = async (): Promise<RecordsFile> => {
    let version: string;
    try {
      const stats = await stat(recordsFile);
      version = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    } catch {
      throw new SiteUnavailableError(
        'the site has not been built yet (no /records.json): build it with npm run build, or publish a record',
      );
    }
    if (cached?.version !== version) {
      const file = JSON.parse(await readFile(recordsFile, 'utf8')) as RecordsFile;
      if (!Array.isArray(file.records) || typeof file.schema !== 'string')
        throw new SiteUnavailableError("the site's /records.json is not a records list: build the site again");
      cached = { version, file };
    }
    return cached.file;
  };

  const siteAddress = async () => site ?? new URL('/', (await readRecordsFile()).schema).href;

  /** A file of a record on the site, or undefined when there is none (a slug or projection that names no file included). */
  const readSiteFile = async (slug: string, projection: Projection, sitePath: string, mimeType: string): Promise<Twin | undefined> => {
    if (!isSlug(slug) || !isProjection(projection)) return undefined;
    // First, so a site not built yet says so rather than that the record is missing.
    const address = await siteAddress();
    let text: string;
    try {
      text = await readFile(path.join(outDir, sitePath), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return { url: absoluteUrl(sitePath, address), mimeType, text };
  };

  return {
    site: siteAddress,
    records: async () => (await readRecordsFile()).records,
    async readTwin(slug, projection, format) {
      const sitePath = format === 'json' ? jsonPath(slug, projection) : markdownPath(slug, projection);
      return readSiteFile(slug, projection, sitePath, TWIN_MEDIA_TYPES[format]);
    },
    readRevision: (slug, projection, number) =>
      Number.isSafeInteger(number) && number >= 1
        ? readSiteFile(slug, projection, revisionJsonPath(slug, projection, number), TWIN_MEDIA_TYPES.json)
        : Promise.resolve(undefined),
    async readRevisions(slug, projection) {
      const history = await readSiteFile(slug, projection, `${revisionsPath(slug, projection)}index.json`, TWIN_MEDIA_TYPES.json);
      return history && (JSON.parse(history.text) as Record<string, unknown>);
    },
  };
}
