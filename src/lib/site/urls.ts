import type { Projection } from '../record/types.ts';
import { webAddress } from './web-address.ts';

/** Site-relative path of the schema the site publishes. */
export const SCHEMA_PATH = '/schema/garment-access-2.4.0.json';
/** Site-relative path of the documentation of the machine-readable surface. */
export const API_DOCS_PATH = '/docs/api/';

/** The record pages' one script (public/scripts/): claim previews, copy buttons, where the reader is in the contents. */
export const RECORD_SCRIPT_PATH = '/scripts/record-page.js';
/** The script every page loads: a garment's picture that fails to load becomes a placeholder naming it. */
export const IMAGES_SCRIPT_PATH = '/scripts/images.js';
/** Site-relative path of the completion-webhook documentation. */
export const WEBHOOK_DOCS_PATH = '/docs/webhooks/';
/** Site-relative path of the documentation of the MCP tools and resources. */
export const MCP_DOCS_PATH = '/docs/mcp/';
/** Site-relative path of the sitemap, or of the index of its parts on a large site. */
export const SITEMAP_PATH = '/sitemap.xml';

/** Path of the page leading to a garment's projections. @example garmentPath('tee') → '/garments/tee/' */
export function garmentPath(slug: string): string {
  return `/garments/${slug}/`;
}

/** Path of a record's HTML page. @example pagePath('tee', 'svc') → '/garments/tee/svc/' */
export function pagePath(slug: string, projection: Projection): string {
  return `/garments/${slug}/${projection}/`;
}

/** Path of a record's JSON twin. @example jsonPath('tee', 'svc') → '/garments/tee/svc.json' */
export function jsonPath(slug: string, projection: Projection): string {
  return `/garments/${slug}/${projection}.json`;
}

/** Path of a record's Markdown twin. @example markdownPath('tee', 'tech') → '/garments/tee/tech.md' */
export function markdownPath(slug: string, projection: Projection): string {
  return `/garments/${slug}/${projection}.md`;
}

/** Path of the CSV of one of a record page's tables (table-csv.ts). @example csvPath('tee', 'svc', 'offers') → '/garments/tee/svc/offers.csv' */
export function csvPath(slug: string, projection: Projection, table: string): string {
  return `${pagePath(slug, projection)}${table}.csv`;
}

/** Path of a record's revision history. @example revisionsPath('tee', 'svc') → '/garments/tee/svc/revisions/' */
export function revisionsPath(slug: string, projection: Projection): string {
  return `${pagePath(slug, projection)}revisions/`;
}

/** Path of the page saying what revision n of a record changed. @example revisionPath('tee', 'svc', 2) → '/garments/tee/svc/revisions/2/' */
export function revisionPath(slug: string, projection: Projection, number: number): string {
  return `${revisionsPath(slug, projection)}${number}/`;
}

/** Path of revision n's JSON as published, its permalink. @example revisionJsonPath('tee', 'svc', 2) → '/garments/tee/svc/revisions/2.json' */
export function revisionJsonPath(slug: string, projection: Projection, number: number): string {
  return `${revisionsPath(slug, projection)}${number}.json`;
}

/** Site-relative path of the category listings, on a site too large for the home page to list every garment. */
export const CATEGORIES_PATH = '/categories/';

/**
 * Path of a page of a category's listing (see categoryPages, index-view.ts), by title or in another order.
 * @example categoryPath('tops') → '/categories/tops/'; categoryPath('tops', 3, 'price') → '/categories/tops/by-price/3/'
 */
export function categoryPath(slug: string, page = 1, sort: 'name' | 'price' | 'weight' = 'name'): string {
  const listing = sort === 'name' ? `${CATEGORIES_PATH}${slug}/` : `${CATEGORIES_PATH}${slug}/by-${sort}/`;
  return page === 1 ? listing : `${listing}${page}/`;
}

/** Absolute URL of a site path. @example absoluteUrl('/a/', 'https://x.org/base/') → 'https://x.org/base/a/' */
export function absoluteUrl(sitePath: string, site: string | URL): string {
  const base = String(site).endsWith('/') ? String(site) : `${String(site)}/`;
  return new URL(sitePath.replace(/^\//, ''), base).href;
}

/**
 * Why a site address is unusable, or undefined when it is the root of an http(s) site.
 * @example siteAddressProblem('example.org') → 'expects an absolute http(s) URL, got "example.org"'
 */
export function siteAddressProblem(site: string): string | undefined {
  const address = webAddress(site);
  if (!address) return `expects an absolute http(s) URL, got ${JSON.stringify(site)}`;
  // Pages link site-relative from `/`: served below a path, a site would lose its styles, navigation and search.
  if (address.pathname !== '/' || address.search || address.hash) {
    return `expects the address of a site's root, such as ${address.origin}/, got ${JSON.stringify(site)}: pages link from /, so the site must be served from the root of its host`;
  }
  return undefined;
}

/** The other projection. */
export function otherProjection(projection: Projection): Projection {
  return projection === 'svc' ? 'tech' : 'svc';
}
