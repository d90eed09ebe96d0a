// Every published record with its links, so a program can mirror the site without scraping.
import type { APIRoute } from 'astro';
import { jsonFile, recordsIndex, siteOf } from '../lib/site/site-files.ts';
import { siteIndex } from '../site.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(jsonFile(recordsIndex(await siteIndex(), siteOf(site))), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
