import { defineMiddleware } from 'astro:middleware';
import { withoutForbiddenCharacters } from './lib/site/text.ts';

// Astro escapes record text on its pages (home, search, documentation) but keeps the characters HTML forbids.
export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  if (!response.headers.get('content-type')?.startsWith('text/html')) return response;
  const headers = new Headers(response.headers);
  // The replacement may change the body's length in bytes.
  headers.delete('content-length');
  return new Response(withoutForbiddenCharacters(await response.text()), { status: response.status, statusText: response.statusText, headers });
});
