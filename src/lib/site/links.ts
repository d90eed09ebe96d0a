import type { GarmentRecord, Links } from '../record/types.ts';
import { absoluteUrl, API_DOCS_PATH, jsonPath, markdownPath, MCP_DOCS_PATH, otherProjection, pagePath, SCHEMA_PATH } from './urls.ts';

/**
 * The `links` a published record carries, absolute from the site's address.
 * `other_projection` is null when the garment has no record of the other projection.
 */
export function linksFor(record: Pick<GarmentRecord, 'slug' | 'projection'>, site: string | URL, otherExists: boolean): Links {
  const { slug, projection } = record;
  const url = (sitePath: string) => absoluteUrl(sitePath, site);
  const json = url(jsonPath(slug, projection));
  return {
    self: json,
    markdown: url(markdownPath(slug, projection)),
    json,
    page: url(pagePath(slug, projection)),
    other_projection: otherExists ? url(jsonPath(slug, otherProjection(projection))) : null,
    schema: url(SCHEMA_PATH),
    api_docs: url(API_DOCS_PATH),
    mcp_docs: url(MCP_DOCS_PATH),
  };
}
