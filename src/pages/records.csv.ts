// Every published record as a table, for a spreadsheet (the same list as /records.json).
import type { APIRoute } from 'astro';
import { recordsCsv, siteOf } from '../lib/site/site-files.ts';
import { siteIndex } from '../site.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(recordsCsv(await siteIndex(), siteOf(site)), { headers: { 'Content-Type': 'text/csv; charset=utf-8; header=present' } });
