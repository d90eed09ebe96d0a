// The latest publications of every record, new records and new revisions alike, as Atom 1.0 (src/lib/revisions/feeds.ts).
import type { APIRoute } from 'astro';
import { siteFeeds } from '../lib/revisions/feeds.ts';
import { siteOf } from '../lib/site/site-files.ts';
import { siteIndex } from '../site.ts';

export const GET: APIRoute = async ({ site }) =>
  new Response(siteFeeds((await siteIndex()).entries, siteOf(site)).atom, {
    headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' },
  });
