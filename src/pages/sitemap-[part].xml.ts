// The parts of a sitemap too large for one file (sitemap.xml is then their index); none otherwise.
// At the site's root: a sitemap may only list addresses below its own folder (sitemaps.org).
import type { APIRoute, GetStaticPaths } from 'astro';
import { siteOf, sitemapXml, type SitemapPage } from '../lib/site/site-files.ts';
import { sitemap } from '../site.ts';

export const getStaticPaths = (async () => {
  const parts = await sitemap();
  return parts.length > 1 ? parts.map((pages, i) => ({ params: { part: String(i + 1) }, props: { pages } })) : [];
}) satisfies GetStaticPaths;

export const GET: APIRoute<{ pages: SitemapPage[] }> = ({ props, site }) =>
  new Response(sitemapXml(props.pages, siteOf(site)), { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
