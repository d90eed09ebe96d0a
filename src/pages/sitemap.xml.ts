// The sitemap: every HTML page, found from the route files so a new page is listed without editing this.
import type { APIRoute } from 'astro';
import { siteOf, sitemapPages, sitemapXml } from '../lib/site/site-files.ts';
import { siteIndex } from '../site.ts';

const routeFiles = Object.keys(import.meta.glob('./**/*.{astro,md,mdx,html}'));

export const GET: APIRoute = async ({ site }) =>
  new Response(sitemapXml(sitemapPages(routeFiles, await siteIndex()), siteOf(site)), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
  });
