// robots.txt: crawlers may read every page, and find them all through the sitemap.
import type { APIRoute } from 'astro';
import { robotsTxt, siteOf } from '../lib/site/site-files.ts';

export const GET: APIRoute = ({ site }) =>
  new Response(robotsTxt(siteOf(site)), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
