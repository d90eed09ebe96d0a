// The llms.txt file: every Markdown twin, the docs and the schema, for language models.
import type { APIRoute } from 'astro';
import { llmsTxtPieces, siteOf } from '../lib/site/site-files.ts';
import { textStream } from '../lib/site/text-stream.ts';
import { siteIndex } from '../site.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(textStream(llmsTxtPieces(await siteIndex(), siteOf(site))), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
