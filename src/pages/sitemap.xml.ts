// The sitemap: every HTML page, found from the route files so a new page is listed without editing
// this; past 50,000 pages, an index of the parts, /sitemap-<n>.xml.
import type { APIRoute } from 'astro';
import { siteOf, sitemapIndexXml, sitemapXml } from '../lib/site/site-files.ts';
import { sitemap } from '../site.ts';

export const GET: APIRoute = async ({ site }) => {
  const parts = await sitemap();
  const xml = parts.length > 1 ? sitemapIndexXml(parts.length, siteOf(site)) : sitemapXml(parts[0]!, siteOf(site));
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
