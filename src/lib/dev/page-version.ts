import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolveRequestPath } from '../serve/static-files.ts';

/** Where the development server answers for itself, apart from the site's own addresses. */
export const DEV_PATH = '/__garment-press';
/** The live-reload script's address. */
export const RELOAD_SCRIPT_PATH = `${DEV_PATH}/live-reload.js`;
/** The address of an open page's event stream. */
export const RELOAD_EVENTS_PATH = `${DEV_PATH}/events`;

/**
 * The site's own files a page loads with it (scripts, stylesheets, icons), as site paths: a page
 * shows a change to one of them only when reloaded.
 * @example linkedFiles('<script src="/scripts/a.js"></script><link rel="icon" href="//cdn.example/x">') → ['/scripts/a.js']
 */
export function linkedFiles(html: string): string[] {
  const files = new Set<string>();
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    const address = /\s(?:src|href)=["']?([^"'\s>]+)/i.exec(tag)?.[1];
    if (address?.startsWith('/') && !address.startsWith('//')) files.add(address.split(/[?#]/)[0]!);
  }
  return [...files];
}

/**
 * A page's version: a hash of its HTML and of the site's own files it loads, so that a changed
 * script reloads the pages that use it; undefined when the page is gone. `sent`: the HTML as sent,
 * when the page is being sent.
 */
export async function pageVersion(siteDir: string, page: string, sent?: string): Promise<string | undefined> {
  const read = (sitePath: string) => {
    const file = resolveRequestPath(siteDir, sitePath);
    return file ? readFile(file).catch(() => undefined) : Promise.resolve(undefined);
  };
  const html = sent === undefined ? await read(page) : Buffer.from(sent);
  if (!html) return undefined;
  const hash = createHash('sha256').update(html);
  for (const linked of linkedFiles(html.toString('utf8')))
    hash
      .update('\0')
      .update(linked)
      .update((await read(linked)) ?? '');
  return hash.digest('hex').slice(0, 16);
}

/**
 * A page as the development server sends it: the live-reload script added at the end of its head,
 * from the site's own origin (so a policy of `script-src 'self'` lets it run), told where its event
 * stream is, which page it is on and which version it shows.
 */
export function withReloadScript(html: string, page: string, version: string): string {
  const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const script = `<script src="${RELOAD_SCRIPT_PATH}" data-events="${RELOAD_EVENTS_PATH}" data-page="${attribute(page)}" data-version="${attribute(version)}" defer></script>`;
  const head = html.search(/<\/head>/i);
  return head === -1 ? `${html}${script}` : `${html.slice(0, head)}${script}${html.slice(head)}`;
}
