// The read-only tools, over a built site: garments.search (the site's own search), garments.get_record
// (a record's JSON or Markdown twin) and garments.list (the records of /records.json, page by page).
import { recordSchema } from '../record/index.ts';
import { SEARCH_FILTERS, SEARCH_PAGE_PATH, type SearchSort } from '../search/search-keys.ts';
import { isSearchable, parseSearchState, searchQueryString } from '../search/search-state.ts';
import { absoluteUrl, pagePath } from '../site/urls.ts';
import { SLUG_PATTERN, type PublishedRecord, type PublishedSite } from './published-site.ts';
import type { SiteSearch } from './site-search.ts';
import { cursorOf, readCursor } from './page-cursor.ts';
import { toolError, type JsonSchema, type Tool, type ToolDefinition } from './tool-call.ts';

/** What the read-only tools read. */
export interface ReadToolsContext {
  published: PublishedSite;
  search: SiteSearch;
}

const SEARCH_LIMIT_MAX = 50;
const LIST_LIMIT_MAX = 200;
const RESEARCH_STATUSES = recordSchema.$defs.research.properties.status.enum;
const PAGE_PATH = /^\/garments\/([^/]+)\/(svc|tech)\/$/;

const projectionArgument = { type: 'string', enum: ['svc', 'tech'], description: 'The projection: "svc" (commerce: prices, sizes, colours, stock) or "tech" (technical: fabric, construction, measurements).' };
const slugArgument = { type: 'string', pattern: SLUG_PATTERN, maxLength: 245, description: 'The garment\'s slug, as search hits and list entries give it, e.g. "ridgeline-rk6210-heavyweight-tee".' };
const textField = (description: string) => ({ type: 'string', description });
const countField = (description: string) => ({ type: 'integer', minimum: 0, description });

const searchHitSchema: JsonSchema = {
  type: 'object',
  required: ['title', 'slug', 'projection', 'projection_code', 'status', 'url', 'excerpt'],
  properties: {
    title: textField('The record\'s title.'),
    slug: textField('The garment\'s slug: pass it with projection_code to garments.get_record.'),
    projection: textField('The projection\'s name: Commerce or Technical.'),
    projection_code: { type: 'string', enum: ['svc', 'tech'], description: 'The projection\'s code.' },
    status: textField('The research status, as the page words it.'),
    url: textField('The record\'s page.'),
    excerpt: textField('Words of the record around the match, as plain text.'),
  },
};

const SEARCH: ToolDefinition = {
  name: 'garments.search',
  title: 'Search garment records',
  description: [
    'Searches the published garment research records as the site\'s search page does (the same index, hits and order): full text over titles, names, fabrics, prices and every text block, narrowed by filters.',
    'Give words, filters, or both (an empty query with filters lists every record they allow). Values of one filter are alternatives (colour Navy or Black); filters narrow one another.',
    'Filter values are the words the site shows (projection "Commerce" or "Technical", status "Complete"); filter_counts in the result lists the values there are and how many hits each would leave.',
    'Read a hit in full with garments.get_record (slug, projection_code).',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    properties: {
      query: { type: 'string', maxLength: 500, description: 'Words to search for; "" for none (then give filters).' },
      filters: {
        type: 'object',
        additionalProperties: false,
        description: 'Per filter, the values a hit must carry one of.',
        properties: Object.fromEntries(SEARCH_FILTERS.map((filter) => [filter, { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 200 } }])),
      },
      sort: { type: 'string', enum: ['relevance', 'title', 'published'], default: 'relevance', description: 'Best match first (relevance), by title A to Z, or newest published first.' },
      limit: { type: 'integer', minimum: 1, maximum: SEARCH_LIMIT_MAX, default: 10, description: 'Most hits returned; total counts them all.' },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['query', 'total', 'hits', 'filter_counts', 'search_url'],
    properties: {
      query: textField('The words searched for.'),
      total: countField('How many records match, of which hits holds the first.'),
      hits: { type: 'array', items: searchHitSchema },
      filter_counts: {
        type: 'object',
        description: 'Per filter and value, how many hits there would be with that value selected too.',
        additionalProperties: { type: 'object', additionalProperties: { type: 'integer' } },
      },
      search_url: textField('The same search on the site\'s search page, for a person.'),
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  access: 'anyone',
};

const searchTool = (context: ReadToolsContext): Tool => ({
  ...SEARCH,
  async run(args) {
    const params = new URLSearchParams({ q: args.query as string });
    for (const [filter, values] of Object.entries((args.filters ?? {}) as Record<string, string[]>)) for (const value of values) params.append(filter, value);
    if (args.sort === 'title' || args.sort === 'published') params.set('sort', args.sort satisfies SearchSort);
    // Read as the search page reads its address, so both search for the same thing.
    const state = parseSearchState(params);
    if (!isSearchable(state)) {
      return toolError('invalid_argument', 'nothing to search for: give words in query, or at least one filter value', [{ pointer: '/query', message: 'expected words, or filters beside an empty query' }]);
    }
    const answer = await context.search.search(state, (args.limit as number | undefined) ?? 10);
    const site = await context.published.site();
    return {
      ok: true,
      result: {
        query: state.query,
        total: answer.total,
        hits: answer.hits.map((hit) => ({
          title: hit.title,
          slug: PAGE_PATH.exec(hit.path)?.[1] ?? '',
          projection: hit.projection,
          projection_code: hit.projectionCode,
          status: hit.status,
          url: absoluteUrl(hit.path, site),
          excerpt: hit.excerpt,
        })),
        filter_counts: answer.filterCounts,
        search_url: absoluteUrl(`${SEARCH_PAGE_PATH}?${searchQueryString(state)}`, site),
      },
    };
  },
});

const GET_RECORD: ToolDefinition = {
  name: 'garments.get_record',
  title: 'Read a garment record',
  description: [
    'Returns a published garment research record: format "json" is the record exactly as published (schema garment-access/2.4.0, with its links),',
    '"markdown" its Markdown twin (every section, claims as footnotes, data as tables), easier to read and quote.',
    'The text is in result.text and in the content. Find slugs with garments.search or garments.list.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['slug', 'projection'],
    properties: {
      slug: slugArgument,
      projection: projectionArgument,
      format: { type: 'string', enum: ['json', 'markdown'], default: 'json', description: 'The record\'s JSON (default) or its Markdown twin.' },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['slug', 'projection', 'format', 'url', 'page_url', 'mime_type', 'text'],
    properties: {
      slug: textField('The garment\'s slug.'),
      projection: { type: 'string', enum: ['svc', 'tech'] },
      format: { type: 'string', enum: ['json', 'markdown'] },
      url: textField('The twin\'s address on the site, also its MCP resource URI.'),
      page_url: textField('The record\'s page on the site.'),
      mime_type: { type: 'string', enum: ['application/json', 'text/markdown'] },
      text: textField('The twin\'s content.'),
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  access: 'anyone',
};

const getRecordTool = (context: ReadToolsContext): Tool => ({
  ...GET_RECORD,
  async run(args) {
    const slug = args.slug as string;
    const projection = args.projection as 'svc' | 'tech';
    const format = (args.format as 'json' | 'markdown' | undefined) ?? 'json';
    const twin = await context.published.readTwin(slug, projection, format);
    if (twin === undefined) {
      return toolError('not_found', `no published record ${slug} (${projection}); find records with garments.search or garments.list`, [
        { pointer: '/slug', message: `no ${projection} record of a garment "${slug}" is published` },
      ]);
    }
    return {
      ok: true,
      result: { slug, projection, format, url: twin.url, page_url: absoluteUrl(pagePath(slug, projection), await context.published.site()), mime_type: twin.mimeType, text: twin.text },
      text: twin.text,
    };
  },
});

const listEntrySchema: JsonSchema = {
  type: 'object',
  required: ['slug', 'projection', 'title', 'category', 'brand', 'record_revision', 'published_at', 'research_status', 'links'],
  properties: {
    slug: { type: 'string' },
    projection: { type: 'string', enum: ['svc', 'tech'] },
    title: { type: 'string' },
    category: { type: 'string' },
    brand: { type: 'string' },
    record_revision: { type: 'string' },
    published_at: { type: 'string' },
    research_status: { type: 'string' },
    links: { type: 'object', additionalProperties: { type: ['string', 'null'] }, description: 'The record\'s links: self (its JSON), markdown, page, other_projection and the docs.' },
  },
};

const LIST: ToolDefinition = {
  name: 'garments.list',
  title: 'List garment records',
  description: [
    'Lists the published garment research records as /records.json has them (by title), a page at a time, for browsing without a query:',
    'slug, projection, title, category, brand, revision, publication date, research status and links.',
    'Narrow by category, brand (either ignoring case), projection or research status; pass next_cursor back as cursor for the next page (null on the last).',
  ].join(' '),
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      category: { type: 'string', maxLength: 200, description: 'Only records of this category, e.g. "tops".' },
      brand: { type: 'string', maxLength: 200, description: 'Only records of this brand, e.g. "Ridgeline".' },
      projection: projectionArgument,
      status: { type: 'string', enum: RESEARCH_STATUSES, description: 'Only records of this research status.' },
      cursor: { type: 'string', maxLength: 200, description: 'next_cursor of the previous page.' },
      limit: { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: 50, description: 'Records per page.' },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['total', 'records', 'next_cursor'],
    properties: {
      total: countField('How many records match, on every page.'),
      records: { type: 'array', items: listEntrySchema },
      next_cursor: { type: ['string', 'null'], description: 'Pass as cursor for the next page; null on the last page.' },
    },
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  access: 'anyone',
};

const listTool = (context: ReadToolsContext): Tool => ({
  ...LIST,
  async run(args) {
    const offset = args.cursor === undefined ? 0 : readCursor(args.cursor as string);
    if (offset === undefined) return toolError('invalid_argument', 'cursor is not one this tool gave; start again without it', [{ pointer: '/cursor', message: 'expected the next_cursor of a previous page' }]);
    const limit = (args.limit as number | undefined) ?? 50;
    const same = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'accent' }) === 0;
    const matches = (record: PublishedRecord) =>
      (args.category === undefined || same(record.category, args.category as string)) &&
      (args.brand === undefined || same(record.brand, args.brand as string)) &&
      (args.projection === undefined || record.projection === args.projection) &&
      (args.status === undefined || record.research_status === args.status);
    const records = (await context.published.records()).filter(matches);
    const page = records.slice(offset, offset + limit);
    const next = offset + page.length < records.length ? cursorOf(offset + page.length) : null;
    return { ok: true, result: { total: records.length, records: page, next_cursor: next } };
  },
});

/** What tools/list shows of the read-only tools. */
export const READ_TOOL_DEFINITIONS: ToolDefinition[] = [SEARCH, GET_RECORD, LIST];

/** The read-only tools. */
export function readTools(context: ReadToolsContext): Tool[] {
  return [searchTool(context), getRecordTool(context), listTool(context)];
}
