// The publish API's OpenAPI 3.1 document, with the site's address as its server.
import type { APIRoute } from 'astro';
import { publishApiDocument } from '../lib/openapi/publish-api.ts';
import { jsonFile, siteOf } from '../lib/site/site-files.ts';

export const GET: APIRoute = ({ site }) =>
  new Response(jsonFile(publishApiDocument(siteOf(site).href)), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
