import type { Stats } from 'node:fs';
import { type FileHandle, lstat, open, readdir, realpath, stat } from 'node:fs/promises';
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { byteRange, type RangeAnswer } from './byte-range.ts';
import { chooseCoding, compressor, type ContentCoding, PRECOMPRESSED_SUFFIX } from './content-coding.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8; header=present',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
};

/**
 * How long an idle keep-alive connection stays open (ms): longer than the idle timeout of clients,
 * proxies and load balancers (60 s is common), so the server never closes a socket just as one of
 * them sends its next request on it (Node's 5 s default; a client sees ECONNRESET).
 */
export const KEEP_ALIVE_MS = 65_000;

/** The Content-Type a built file is served with. @example contentTypeOf('a/svc.md') → 'text/markdown; charset=utf-8' */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Maps a request path to a file under root, or null when it would leave root. */
export function resolveRequestPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]!.split('#')[0]!);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = path.join(root, path.normalize(`/${decoded}`));
  return file === root || file.startsWith(`${root}${path.sep}`) ? file : null;
}

/**
 * The request target as an address on this site, or null when it is none. The origin form is read
 * as a path even when it starts with `//host`, so no redirect can lead off the site; the absolute
 * form, which a server must accept too (RFC 9112 §3.2.2), by its path.
 * @example requestUrl('//evil.example/x')?.pathname → '//evil.example/x'
 */
function requestUrl(target = '/'): URL | null {
  if (target.startsWith('/')) return URL.parse(`http://localhost${target}`);
  const absolute = URL.parse(target);
  return absolute && URL.parse(`http://localhost${absolute.pathname}${absolute.search}`);
}

/** Every answer's: a browser must take a file for the type it is sent as. */
const NO_SNIFF = { 'X-Content-Type-Options': 'nosniff' };
/** The headers of the server's own short answers. */
const PLAIN_TEXT = { 'Content-Type': 'text/plain; charset=utf-8', ...NO_SNIFF };

/** How a server of a built site differs from the publisher's: only the development server sets these. */
export interface StaticFilesOptions {
  /** Rewrites each HTML page sent (`file` its path); such pages go out whole, uncompressed and never cached. */
  rewriteHtml?: (html: string, file: string) => Promise<string>;
}

/**
 * A request handler serving a built site: directory indexes, `/x` → `/x/` redirects,
 * the site's 404 page, HEAD, correct content types, validators (ETag, Last-Modified) with 304
 * answers, single byte ranges, and brotli, zstd or gzip for text when the client accepts it (a file
 * the build precompressed when there is one). It reads `root` per request, so a rebuilt site
 * swapped into place is served at once; a symbolic link leading out of it is not followed. A miss
 * during a swap (the folder renamed away for a moment) is looked up again once the new site is in place.
 */
export function staticFilesHandler(
  rootDir: string,
  options: StaticFilesOptions = {},
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const root = path.resolve(rootDir);
  return async (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD', ...PLAIN_TEXT }).end('method not allowed\n');
      return;
    }
    const url = requestUrl(request.url);
    const file = url && resolveRequestPath(root, url.pathname);
    if (!file) {
      response.writeHead(400, PLAIN_TEXT).end('bad path\n');
      return;
    }
    // A miss is a miss only if the site stayed the same folder while it was looked for; else it is looked for in the new one.
    const deadline = performance.now() + SWAP_WAIT_MS;
    for (;;) {
      const before = await folderIdentity(root);
      if (await serveExisting(request, response, url, file, root, options)) return;
      if (!(await swappedSince(root, before))) break;
      if (!(await siteInPlace(root, deadline))) {
        const retry = { 'Retry-After': String(SWAP_WAIT_MS / 1000), 'Cache-Control': 'no-store', ...PLAIN_TEXT };
        response.writeHead(503, retry).end('the site is being replaced; try again in a moment\n');
        return;
      }
    }
    if (!(await sendFile(request, response, path.join(root, '404.html'), 404, root, options))) {
      response.writeHead(404, PLAIN_TEXT).end('not found\n');
    }
  };
}

/** How long a reader's miss waits for a site being swapped in before it is told to try again. */
const SWAP_WAIT_MS = 5000;
/** How often a waiting reader looks for the site again: a swap takes a few milliseconds. */
const SWAP_LOOK_MS = 5;

/**
 * A folder's identity, or undefined while it is missing: a swapped-in site is another folder. The inode
 * alone is not enough (a site removed frees its inode for the next build's folder); a rename changes the ctime.
 */
async function folderIdentity(folder: string): Promise<string | undefined> {
  const info = await stat(folder, { bigint: true }).catch(() => undefined);
  return info === undefined ? undefined : `${info.dev}:${info.ino}:${info.birthtimeNs}:${info.ctimeNs}`;
}

/** Whether the site was being swapped during the request: another folder now, or missing while a build has the old one aside. */
async function swappedSince(root: string, before: string | undefined): Promise<boolean> {
  const now = await folderIdentity(root);
  // Another folder than before, or one where there was none (the new site renamed in meanwhile).
  if (now !== undefined) return now !== before;
  // One listing is one moment: the site back in place, or the old one set aside, means a swap; neither means no site was built yet.
  // (Separate looks could straddle a whole swap: the site back at one, aside again for the next build at the other.)
  const name = path.basename(root);
  const beside = await readdir(path.dirname(root)).catch((): string[] => []);
  return beside.some((entry) => entry === name || entry.startsWith(`${name}.previous-`));
}

/** Waits until the site folder is in place again, up to `deadline` (performance.now()); false if it is still missing then. */
async function siteInPlace(root: string, deadline: number): Promise<boolean> {
  while ((await folderIdentity(root)) === undefined) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, SWAP_LOOK_MS));
  }
  return true;
}

/** Answers a path the site has (a file, a folder's index, a folder's redirect); false, answering nothing, when it has none. */
async function serveExisting(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  file: string,
  root: string,
  options: StaticFilesOptions,
): Promise<boolean> {
  // Dot folders hold build state, never content.
  const hidden = path
    .relative(root, file)
    .split(path.sep)
    .some((segment) => segment.startsWith('.'));
  const info = hidden || !(await isInside(root, file)) ? undefined : await stat(file).catch(() => undefined);
  if (info?.isDirectory()) {
    if (!url.pathname.endsWith('/')) {
      // The folder's own path, so the address is the canonical one and starts with a single slash.
      const folder = sitePathOf(root, file);
      response.writeHead(301, { Location: `${folder === '/' ? '' : folder}/${url.search}`, ...NO_SNIFF }).end();
      return true;
    }
    return sendFile(request, response, path.join(file, 'index.html'), 200, root, options);
  }
  return info?.isFile() === true && sendFile(request, response, file, 200, root, options);
}

/** Whether a file, its symbolic links followed, is inside root (followed too); false when it does not exist. */
async function isInside(root: string, file: string): Promise<boolean> {
  const [realRoot, realFile] = await Promise.all([realpath(root).catch(() => undefined), realpath(file).catch(() => undefined)]);
  return realRoot !== undefined && realFile !== undefined && (realFile === realRoot || realFile.startsWith(`${realRoot}${path.sep}`));
}

/** The bytes an answer sends: a file as it is, a precompressed file beside it, or the file compressed as it is sent. */
interface Representation {
  /** Open on the bytes sent: what is read is what was measured, whatever a swap renames meanwhile. */
  handle: FileHandle;
  coding: ContentCoding | undefined;
  /** The size sent, known unless compressed on the fly. */
  size: number | undefined;
  /** A validator for exactly these bytes; weak when compressed on the fly. */
  etag: string;
}

/** Sends a file, opened once so a swap cannot change it between measuring and reading; false, sending nothing, when it is not there. */
async function sendFile(
  request: IncomingMessage,
  response: ServerResponse,
  file: string,
  status: number,
  root: string,
  { rewriteHtml }: StaticFilesOptions,
): Promise<boolean> {
  const handle = (await isInside(root, file)) ? await open(file, 'r').catch(() => undefined) : undefined;
  if (handle === undefined) return false;
  const handles = new Set([handle]);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return false;
    if (rewriteHtml && path.extname(file).toLowerCase() === '.html') {
      const body = Buffer.from(await rewriteHtml(await handle.readFile('utf8'), file));
      response.writeHead(status, {
        'Content-Type': contentTypeOf(file),
        ...NO_SNIFF,
        'Cache-Control': 'no-store',
        'Content-Length': body.length,
      });
      response.end(request.method === 'HEAD' ? undefined : body);
      return true;
    }
    const compressible = COMPRESSIBLE.has(path.extname(file).toLowerCase());
    const sent = await representationOf(file, handle, info, compressible ? chooseCoding(request.headers['accept-encoding']) : undefined);
    handles.add(sent.handle);
    const headers: OutgoingHttpHeaders = {
      'Content-Type': contentTypeOf(file),
      ...NO_SNIFF,
      'Cache-Control': isNamedByContent(sitePathOf(root, file)) ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(compressible && { Vary: 'Accept-Encoding' }),
    };
    const streamed = sendRepresentation(request, response, sent, info, status, headers);
    if (streamed) handles.delete(sent.handle);
    return true;
  } finally {
    for (const opened of handles) await opened.close().catch(() => {});
  }
}

/** Answers with the representation's bytes (a range of them, or 304, or 416); true when its handle went to a stream, which closes it. */
function sendRepresentation(
  request: IncomingMessage,
  response: ServerResponse,
  sent: Representation,
  info: Stats,
  status: number,
  headers: OutgoingHttpHeaders,
): boolean {
  let range: RangeAnswer = { kind: 'whole' };
  if (status === 200) {
    headers.ETag = sent.etag;
    headers['Last-Modified'] = info.mtime.toUTCString();
    if (isFresh(request, sent.etag, info.mtimeMs)) {
      response.writeHead(304, headers).end();
      return false;
    }
    if (sent.size !== undefined) {
      headers['Accept-Ranges'] = 'bytes';
      if (rangeStillApplies(request.headers['if-range']?.toString(), sent.etag, info.mtimeMs))
        range = byteRange(request.headers.range, sent.size);
    }
  }
  if (range.kind === 'unsatisfiable') {
    response.writeHead(416, { ...headers, 'Content-Range': `bytes */${sent.size}`, 'Content-Length': 0 }).end();
    return false;
  }
  if (sent.coding) headers['Content-Encoding'] = sent.coding;
  const [start, end] = range.kind === 'part' ? [range.start, range.end] : [0, (sent.size ?? info.size) - 1];
  if (range.kind === 'part') {
    response.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${sent.size}`, 'Content-Length': end - start + 1 });
  } else {
    response.writeHead(status, sent.size === undefined ? headers : { ...headers, 'Content-Length': sent.size });
  }
  if (request.method === 'HEAD' || end < start) {
    response.end();
    return false;
  }
  const onEnd = (error: Error | null) => error && response.destroy(error);
  // The size sent is the size measured on the open file: a file that grew since must not add bytes after the response.
  const body = sent.handle.createReadStream({ start, end });
  if (sent.size === undefined && sent.coding) pipeline(body, compressor(sent.coding), response, onEnd);
  else pipeline(body, response, onEnd);
  return true;
}

/**
 * What to send for a file and the coding the client prefers: the precompressed file the build wrote
 * beside it when it is as new as the file, else the file compressed as it goes out (worth it only
 * from COMPRESS_FROM_BYTES), else the file itself. Each has its own ETag, so a cache keeps them apart.
 */
async function representationOf(file: string, handle: FileHandle, info: Stats, coding: ContentCoding | undefined): Promise<Representation> {
  const version = `${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}`;
  if (coding === undefined || info.size < COMPRESS_FROM_BYTES) return { handle, coding: undefined, size: info.size, etag: `"${version}"` };
  const precompressed = `${file}${PRECOMPRESSED_SUFFIX[coding]}`;
  // lstat: a link beside the file is not the build's.
  const linked = await lstat(precompressed).catch(() => undefined);
  const compressed = linked?.isFile() ? await open(precompressed, 'r').catch(() => undefined) : undefined;
  const compressedInfo = await compressed?.stat();
  if (compressed !== undefined && compressedInfo !== undefined && compressedInfo.mtimeMs >= info.mtimeMs) {
    return { handle: compressed, coding, size: compressedInfo.size, etag: `"${version}-${coding}"` };
  }
  await compressed?.close();
  return { handle, coding, size: undefined, etag: `W/"${version}-${coding}"` };
}

/** Whether a Range is to be honoured given If-Range (RFC 9110 §13.1.5): no If-Range, or it names this very version. */
function rangeStillApplies(ifRange: string | undefined, etag: string, mtimeMs: number): boolean {
  if (ifRange === undefined) return true;
  const trimmed = ifRange.trim();
  if (trimmed.startsWith('"')) return !etag.startsWith('W/') && trimmed === etag;
  return httpDate(trimmed) === Math.floor(mtimeMs / 1000) * 1000;
}

/** A file's path on the site: `/` and its path under root, each segment percent-encoded. */
function sitePathOf(root: string, file: string): string {
  return `/${path.relative(root, file).split(path.sep).map(encodeURIComponent).join('/')}`;
}

/**
 * Whether a file's name changes with its content, so a browser may keep it for good: Astro's
 * assets, the stylesheet (`/styles/site.<hash>.css`) and Pagefind's index files (`*.pf_*`).
 */
function isNamedByContent(sitePath: string): boolean {
  return (
    sitePath.startsWith('/_astro/') ||
    /^\/styles\/site\.[0-9a-f]+\.css$/.test(sitePath) ||
    /\.pf_[a-z]+$/.test(sitePath) ||
    // A search shard's folder is named by its index's hash, and the word lists by their own (search/index/shard-layout.ts).
    /^\/pagefind\/\d+\.[\w-]+\//.test(sitePath) ||
    /^\/pagefind\/words\/\w+\.[0-9a-f]+\.json$/.test(sitePath)
  );
}

/** Text worth compressing; Pagefind's index files are compressed already and served as they are. */
const COMPRESSIBLE = new Set(['.html', '.json', '.md', '.csv', '.txt', '.xml', '.css', '.js', '.mjs', '.svg']);
/** Below this, compression's framing outweighs what it saves. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Whether a conditional GET can be answered 304: If-None-Match names the file's version (compared
 * weakly, or `*`), or, without it, If-Modified-Since is no earlier than the file's time.
 */
function isFresh(request: IncomingMessage, etag: string, mtimeMs: number): boolean {
  const { 'if-none-match': noneMatch, 'if-modified-since': modifiedSince } = request.headers;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  if (noneMatch !== undefined) return noneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
  const since = httpDate(modifiedSince);
  return since !== undefined && Math.floor(mtimeMs / 1000) * 1000 <= since;
}

/**
 * The time an HTTP-date names (RFC 9110 §5.6.7: IMF-fixdate, or the obsolete RFC 850 and asctime
 * forms), or undefined for anything else, which a recipient must ignore.
 * @example httpDate('Sun, 06 Nov 1994 08:49:37 GMT') → 784111777000; httpDate('2099-01-01') → undefined
 */
export function httpDate(value: string | undefined): number | undefined {
  const trimmed = value?.trim() ?? '';
  if (!HTTP_DATE_FORMS.some((form) => form.test(trimmed))) return undefined;
  const time = Date.parse(trimmed.endsWith('GMT') ? trimmed : `${trimmed} GMT`);
  return Number.isNaN(time) ? undefined : time;
}

const HTTP_DATE_FORMS = [
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/,
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/,
];

/**
 * Serves a built site on loopback; port 0 lets the system choose. `routes` answer their exact paths
 * instead of the site (the development server's own). `close` stops at once, ending open connections.
 */
export async function serveStaticFiles(
  rootDir: string,
  {
    port = 0,
    host = '127.0.0.1',
    routes = {},
    ...options
  }: StaticFilesOptions & { port?: number; host?: string; routes?: Record<string, RequestListener> } = {},
): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const handle = staticFilesHandler(rootDir, options);
  const server = createServer({ keepAliveTimeout: KEEP_ALIVE_MS }, (request, response) => {
    const pathname = requestUrl(request.url)?.pathname ?? '';
    if (Object.hasOwn(routes, pathname)) return routes[pathname]!(request, response);
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(`internal error: ${(error as Error).message}\n`);
    });
  });
  // A port in use is an 'error' event, not an exception: it must reject, not end the process.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${actualPort}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections (fetch keeps them) would otherwise hold close() open for seconds.
        server.closeAllConnections();
      }),
  };
}
