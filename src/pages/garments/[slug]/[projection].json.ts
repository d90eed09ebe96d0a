// The JSON twin of a record: the input record with `links` filled and nothing else changed.
import type { APIRoute, GetStaticPaths } from 'astro';
import { publishedRecord } from '../../../lib/site/links.ts';
import { readRecord, type SiteEntry } from '../../../lib/site/site-index.ts';
import { entryLinks, recordRoutes, jsonFile, siteOf } from '../../../lib/site/site-files.ts';
import { siteIndex } from '../../../site.ts';

export const getStaticPaths = (async () => recordRoutes(await siteIndex())) satisfies GetStaticPaths;

export const GET: APIRoute<{ entry: SiteEntry }> = async ({ props, site }) => {
  const links = entryLinks(await siteIndex(), props.entry, siteOf(site));
  return new Response(jsonFile(publishedRecord(readRecord(props.entry), links)), {
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
};
