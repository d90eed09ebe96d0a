// Every published twin as an MCP resource: the record's JSON and its Markdown, named by their
// addresses on the site (the record's links.self and links.markdown), listed a page at a time.
import {
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
import { PROJECTION_GROUP, type Projection } from '../record/projections.ts';
import { cursorOf, readCursor } from './page-cursor.ts';
import { TWIN_MEDIA_TYPES, type PublishedRecord, type PublishedSite, type TwinFormat } from './published-site.ts';

/** Records per page of resources/list (each gives two resources). */
const RECORDS_PER_PAGE = 50;

const TWIN_PATH = new RegExp(`^/garments/([^/]+)/${PROJECTION_GROUP}\\.(json|md)$`);
/** A revision's JSON as published then (src/lib/revisions/). */
const REVISION_PATH = new RegExp(`^/garments/([^/]+)/${PROJECTION_GROUP}/revisions/([1-9]\\d{0,8})\\.json$`);

/** One page of every twin, in the order /records.json lists the records. */
export async function listResources(published: PublishedSite, cursor: string | undefined): Promise<ListResourcesResult> {
  const offset = cursor === undefined ? 0 : readCursor(cursor);
  if (offset === undefined)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'invalid cursor: pass the nextCursor of a previous page, or none');
  const records = await published.records();
  const page = records.slice(offset, offset + RECORDS_PER_PAGE);
  const resources = page.flatMap((record) => [
    twinResource(record, 'json'),
    twinResource(record, 'markdown'),
    ...revisionResources(record),
  ]);
  const end = offset + page.length;
  return end < records.length ? { resources, nextCursor: cursorOf(end) } : { resources };
}

/** The addresses of the two twins, as URI templates (RFC 6570). */
export async function listResourceTemplates(published: PublishedSite): Promise<ListResourceTemplatesResult> {
  const site = await published.site();
  return {
    resourceTemplates: [
      {
        uriTemplate: `${site}garments/{slug}/{projection}.json`,
        name: 'garment-record-json',
        title: 'Garment record (JSON)',
        description: 'A record as published; projection is svc or tech.',
        mimeType: TWIN_MEDIA_TYPES.json,
      },
      {
        uriTemplate: `${site}garments/{slug}/{projection}.md`,
        name: 'garment-record-markdown',
        title: 'Garment record (Markdown)',
        description: "A record's Markdown twin; projection is svc or tech.",
        mimeType: TWIN_MEDIA_TYPES.markdown,
      },
      {
        uriTemplate: `${site}garments/{slug}/{projection}/revisions/{number}.json`,
        name: 'garment-record-revision',
        title: 'Garment record revision (JSON)',
        description: 'Revision number of a record, exactly as published then; projection is svc or tech.',
        mimeType: TWIN_MEDIA_TYPES.json,
      },
    ],
  };
}

/** A twin by its address; an address of no published twin is "resource not found" (-32602 with the uri, on every protocol version). */
export async function readResource(published: PublishedSite, uri: string): Promise<ReadResourceResult> {
  const site = new URL(await published.site());
  const url = URL.parse(uri);
  const ours = url !== null && url.origin === site.origin && url.search === '';
  const match = ours ? TWIN_PATH.exec(url.pathname) : null;
  const revision = ours ? REVISION_PATH.exec(url.pathname) : null;
  const twin = match
    ? await published.readTwin(match[1]!, match[2] as Projection, match[3] === 'md' ? 'markdown' : 'json')
    : revision
      ? await published.readRevision(revision[1]!, revision[2] as Projection, Number(revision[3]))
      : undefined;
  if (twin === undefined) throw new ResourceNotFoundError(uri.slice(0, 300), `resource not found: ${uri.slice(0, 300)}`);
  return { contents: [{ uri: twin.url, mimeType: twin.mimeType, text: twin.text }] };
}

/** Each revision's JSON of a record, as records.json counts them. */
function revisionResources(record: PublishedRecord): Resource[] {
  const self = record.links.self;
  if (!self || !record.revision_count) return [];
  return Array.from({ length: record.revision_count }, (_, i) => ({
    uri: new URL(`${record.projection}/revisions/${i + 1}.json`, self).href,
    name: `${record.slug}/${record.projection}/revisions/${i + 1}.json`,
    title: `${record.title}, revision ${i + 1} (JSON)`,
    description: `Revision ${i + 1} of the record, exactly as published then.`,
    mimeType: TWIN_MEDIA_TYPES.json,
  }));
}

function twinResource(record: PublishedRecord, format: TwinFormat): Resource {
  const json = format === 'json';
  return {
    uri: (json ? record.links.self : record.links.markdown)!,
    name: `${record.slug}/${record.projection}.${json ? 'json' : 'md'}`,
    title: `${record.title} (${json ? 'JSON' : 'Markdown'})`,
    description: json
      ? 'The record as published (garment-access/2.4.0).'
      : "The record's Markdown twin: every section, claims as footnotes, data as tables.",
    mimeType: TWIN_MEDIA_TYPES[format],
  };
}
