// Every published record as a table, for a spreadsheet (the same list as /records.json).
import type { APIRoute } from 'astro';
import { recordsCsvPieces, siteOf } from '../lib/site/site-files.ts';
import { textStream } from '../lib/site/text-stream.ts';
import { siteIndex } from '../site.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(textStream(recordsCsvPieces(await siteIndex(), siteOf(site))), {
    headers: { 'Content-Type': 'text/csv; charset=utf-8; header=present' },
  });
