// The read-only tools, over a built site: garments.search (the site's own search), garments.get_record
// (a record's JSON or Markdown twin) and garments.list (the records of /records.json, page by page).
import { resultFacts } from '../search/query/result-view.ts';
import { SEARCH_PAGE_PATH } from '../search/query/search-keys.ts';
import { searchNote } from '../search/query/search-messages.ts';
import { searchMessages } from '../site/search-text.ts';
import { isSearchable, parseSearchState, searchQueryString } from '../search/query/search-state.ts';
import type { Projection } from '../record/projections.ts';
import { projectionLabel } from '../site/strings.ts';
import { absoluteUrl, pagePath } from '../site/urls.ts';
import { cursorOf, readCursor } from './page-cursor.ts';
import { revisionTools } from './revision-tools.ts';
import type { PublishedRecord, PublishedSite } from './published-site.ts';
import type { SiteSearch } from './site-search.ts';
import { toolError, type Tool } from './tool-call.ts';
import { GET_RECORD, LIST, SEARCH } from './tool-definitions.ts';

/** What the read-only tools read. */
export interface ReadToolsContext {
  published: PublishedSite;
  search: SiteSearch;
}

/** A garment's page: its slug. */
const GARMENT_PATH = /^\/garments\/([^/]+)\/$/;

const searchTool = (context: ReadToolsContext): Tool => ({
  ...SEARCH,
  async run(args) {
    const params = new URLSearchParams({ q: args.query as string });
    for (const [filter, values] of Object.entries((args.filters ?? {}) as Record<string, string[]>))
      for (const value of values) params.append(filter, value);
    // Every sort of the search page, by the name its address gives it; "relevance" is its default, best match first.
    if (typeof args.sort === 'string' && args.sort !== 'relevance') params.set('sort', args.sort);
    // Read as the search page reads its address, so both search for the same thing.
    const state = parseSearchState(params);
    if (!isSearchable(state)) {
      return toolError('invalid_argument', 'nothing to search for: give words in query, or at least one filter value', [
        { pointer: '/query', message: 'expected words, or filters beside an empty query' },
      ]);
    }
    const answer = await context.search.search(state, (args.limit as number | undefined) ?? 10);
    const site = await context.published.site();
    const messages = searchMessages();
    return {
      ok: true,
      result: {
        query: state.query,
        searched: answer.searched,
        corrected: answer.corrected,
        dropped: answer.dropped,
        note: searchNote(state, answer, messages),
        suggestions: answer.suggestions,
        total: answer.total,
        garments: answer.garments.map(({ view, excerpt }) => ({
          slug: GARMENT_PATH.exec(view.href)?.[1] ?? '',
          title: view.title,
          url: absoluteUrl(view.href, site),
          image: view.image && { url: view.image.src, alt: view.image.alt },
          projections: view.projections.map((projection) => ({
            code: projection.code,
            name: projectionLabel(projection.code),
            url: absoluteUrl(projection.href, site),
            status: projection.status,
          })),
          key_facts: resultFacts(view, messages),
          excerpt,
        })),
        filter_counts: answer.filterCounts,
        search_url: absoluteUrl(`${SEARCH_PAGE_PATH}?${searchQueryString(state)}`, site),
      },
    };
  },
});

const getRecordTool = (context: ReadToolsContext): Tool => ({
  ...GET_RECORD,
  async run(args) {
    const slug = args.slug as string;
    const projection = args.projection as Projection;
    const format = (args.format as 'json' | 'markdown' | undefined) ?? 'json';
    const revision = args.revision as number | undefined;
    if (revision !== undefined && format !== 'json')
      return toolError('invalid_argument', 'an earlier revision is kept as JSON only: ask for format "json"', [
        { pointer: '/format', message: 'expected "json" with a revision' },
      ]);
    const twin =
      revision === undefined
        ? await context.published.readTwin(slug, projection, format)
        : await context.published.readRevision(slug, projection, revision);
    if (twin === undefined && revision !== undefined && (await context.published.readTwin(slug, projection, 'json')))
      return toolError('not_found', `${slug} (${projection}) has no revision ${revision}; garments.list_revisions lists them`, [
        { pointer: '/revision', message: `no revision ${revision} of this record is published` },
      ]);
    if (twin === undefined) {
      return toolError('not_found', `no published record ${slug} (${projection}); find records with garments.search or garments.list`, [
        { pointer: '/slug', message: `no ${projection} record of a garment "${slug}" is published` },
      ]);
    }
    return {
      ok: true,
      result: {
        slug,
        projection,
        format,
        url: twin.url,
        page_url: absoluteUrl(pagePath(slug, projection), await context.published.site()),
        mime_type: twin.mimeType,
        text: twin.text,
      },
      text: twin.text,
    };
  },
});

const listTool = (context: ReadToolsContext): Tool => ({
  ...LIST,
  async run(args) {
    const offset = args.cursor === undefined ? 0 : readCursor(args.cursor as string);
    if (offset === undefined)
      return toolError('invalid_argument', 'cursor is not one this tool gave; start again without it', [
        { pointer: '/cursor', message: 'expected the next_cursor of a previous page' },
      ]);
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

/** The read-only tools. */
export function readTools(context: ReadToolsContext): Tool[] {
  return [searchTool(context), getRecordTool(context), listTool(context), ...revisionTools(context.published)];
}
