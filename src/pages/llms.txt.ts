// The llms.txt file: every Markdown twin, the docs and the schema, for language models.
import type { APIRoute } from 'astro';
import { llmsTxt, siteOf } from '../lib/site/site-files.ts';
import { siteIndex } from '../site.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(llmsTxt(await siteIndex(), siteOf(site)), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
