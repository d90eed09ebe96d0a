// Every published record with its links, so a program can mirror the site without scraping.
import type { APIRoute } from 'astro';
import { recordsJsonPieces, siteOf } from '../lib/site/site-files.ts';
import { textStream } from '../lib/site/text-stream.ts';
import { siteIndex } from '../site.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(textStream(recordsJsonPieces(await siteIndex(), siteOf(site))), {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
