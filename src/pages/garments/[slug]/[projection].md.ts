// The Markdown twin of a record: front matter, the page's text with claims as footnotes, the data.
import type { APIRoute, GetStaticPaths } from 'astro';
import { recordMarkdown } from '../../../lib/site/markdown.ts';
import { readRecord, type SiteEntry } from '../../../lib/site/site-index.ts';
import { entryLinks, recordRoutes, siteOf } from '../../../lib/site/site-files.ts';
import { siteIndex } from '../../../site.ts';

export const getStaticPaths = (async () => recordRoutes(await siteIndex())) satisfies GetStaticPaths;

export const GET: APIRoute<{ entry: SiteEntry }> = async ({ props, site }) => {
  const links = entryLinks(await siteIndex(), props.entry, siteOf(site));
  return new Response(recordMarkdown(readRecord(props.entry), links), {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8' },
  });
};
