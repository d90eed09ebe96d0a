import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { serveStaticFiles } from '../serve/static-files.ts';
import { pageVersion, RELOAD_EVENTS_PATH, RELOAD_SCRIPT_PATH, withReloadScript } from './page-version.ts';
import { messageForPage, serverSentEvent, type OpenPage, type SiteProblems } from './reload-message.ts';

/** The development server: the built site with the live-reload script in its pages, and each open page's event stream. */
export interface DevServer {
  url: string;
  /** Tells every open page how the last build went: its problems, or undefined when it built. */
  announce(problems: SiteProblems | undefined): Promise<void>;
  close(): Promise<void>;
}

const liveReloadScript = new URL('./browser/live-reload.js', import.meta.url);

/** An open page's stream: the page it is on, what it shows, and the message being sent to it. */
type PageStream = OpenPage & { page: string; told: Promise<void> };

/**
 * Serves `siteDir` on loopback as `npm run preview` does, but each HTML page gets the live-reload
 * script, and the script's event stream tells the page to reload when its files change or shows
 * the last build's problems over it. Nothing of this is written into the site.
 */
export async function serveDevSite(siteDir: string, { port = 0, host = '127.0.0.1' } = {}): Promise<DevServer> {
  const root = path.resolve(siteDir);
  const openPages = new Map<ServerResponse, PageStream>();
  let problems: SiteProblems | undefined;

  // One message at a time per page, each decided on the site as it is when its turn comes.
  const tell = (response: ServerResponse, open: PageStream) => {
    open.told = open.told.then(async () => {
      const message = messageForPage(open, { version: await pageVersion(root, open.page), problems });
      if (!message) return;
      open.shows = message.event === 'problems' ? message.data : undefined;
      response.write(serverSentEvent(message));
    });
    // A page that could not be told is closed: its script connects again and is told then.
    open.told = open.told.catch(() => void response.destroy());
    return open.told;
  };

  const events = async (request: IncomingMessage, response: ServerResponse) => {
    const query = new URL(request.url ?? '/', 'http://localhost').searchParams;
    const open: PageStream = {
      page: query.get('page') ?? '/',
      version: query.get('version') ?? '',
      shows: undefined,
      told: Promise.resolve(),
    };
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    response.write(': garment-press dev\n\n');
    openPages.set(response, open);
    request.on('close', () => openPages.delete(response));
    await tell(response, open);
  };

  const script = async (_request: IncomingMessage, response: ServerResponse) => {
    const body = await readFile(liveReloadScript);
    response.writeHead(200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    response.end(body);
  };

  const served = await serveStaticFiles(root, {
    port,
    host,
    routes: {
      [RELOAD_SCRIPT_PATH]: (request, response) => void script(request, response).catch(() => response.destroy()),
      [RELOAD_EVENTS_PATH]: (request, response) => void events(request, response).catch(() => response.destroy()),
    },
    rewriteHtml: async (html, file) => {
      const page = `/${path.relative(root, file).split(path.sep).join('/')}`;
      return withReloadScript(html, page, (await pageVersion(root, page, html)) ?? '');
    },
  });

  return {
    url: served.url,
    async announce(found) {
      problems = found;
      await Promise.all([...openPages].map(([response, open]) => tell(response, open)));
    },
    close: served.close,
  };
}
