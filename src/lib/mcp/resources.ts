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

/** One page of every twin, in the order /records.json lists the records. */
export async function listResources(published: PublishedSite, cursor: string | undefined): Promise<ListResourcesResult> {
  const offset = cursor === undefined ? 0 : readCursor(cursor);
  if (offset === undefined)
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'invalid cursor: pass the nextCursor of a previous page, or none');
  const records = await published.records();
  const page = records.slice(offset, offset + RECORDS_PER_PAGE);
  const resources = page.flatMap((record) => [twinResource(record, 'json'), twinResource(record, 'markdown')]);
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
    ],
  };
}

/** A twin by its address; an address of no published twin is "resource not found" (-32602 with the uri, on every protocol version). */
export async function readResource(published: PublishedSite, uri: string): Promise<ReadResourceResult> {
  const site = new URL(await published.site());
  const url = URL.parse(uri);
  const match = url !== null && url.origin === site.origin && url.search === '' ? TWIN_PATH.exec(url.pathname) : null;
  const twin = match ? await published.readTwin(match[1]!, match[2] as Projection, match[3] === 'md' ? 'markdown' : 'json') : undefined;
  if (twin === undefined) throw new ResourceNotFoundError(uri.slice(0, 300), `resource not found: ${uri.slice(0, 300)}`);
  return { contents: [{ uri: twin.url, mimeType: twin.mimeType, text: twin.text }] };
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
