// Serves the dashboard under /dashboard/ from the service itself (same origin as /api/): the page,
// its stylesheet and its script modules, stripped of their types, each under a strict policy.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stripTypeScriptTypes } from 'node:module';
import { ASSETS_PATH, DASHBOARD_ROOT, dashboardPageHtml, WEBHOOKS_PAGE_PATH } from './dashboard-page.ts';

/** The policy of every dashboard answer: only the page's own script, styles and API calls. */
export const DASHBOARD_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** Headers every dashboard answer carries: it shows secrets and untrusted receiver answers. */
const GUARD_HEADERS = {
  'Content-Security-Policy': DASHBOARD_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

/**
 * The script modules the page loads, by file name in browser/, served side by side under ASSETS_PATH
 * (their imports name each other so).
 */
const SCRIPT_FILES = ['dashboard-client.ts', 'delivery-nodes.ts', 'delivery-view.ts'];

interface Asset {
  type: string;
  body: string;
}

/** Returns true for the paths the dashboard answers: `/dashboard` and everything under it. */
export function isDashboardPath(pathname: string): boolean {
  return pathname === '/dashboard' || pathname.startsWith(DASHBOARD_ROOT);
}

/** Returns the handler of `/dashboard` and below: the page, its assets, redirects to the page, 404 for anything else. */
export function dashboardHandler(): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  let assets: Map<string, Asset> | undefined;
  return async (request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      answer(
        request,
        response,
        405,
        { type: 'text/plain; charset=utf-8', body: `${pathname.slice(0, 200)} accepts GET, HEAD\n` },
        { Allow: 'GET, HEAD' },
      );
      return;
    }
    if (pathname === '/dashboard' || pathname === DASHBOARD_ROOT || `${pathname}/` === WEBHOOKS_PAGE_PATH) {
      answer(
        request,
        response,
        302,
        { type: 'text/plain; charset=utf-8', body: `see ${WEBHOOKS_PAGE_PATH}\n` },
        { Location: WEBHOOKS_PAGE_PATH },
      );
      return;
    }
    assets ??= readAssets();
    const found = assets.get(pathname);
    if (found === undefined) {
      answer(request, response, 404, { type: 'text/plain; charset=utf-8', body: `no dashboard page at ${pathname.slice(0, 200)}\n` });
      return;
    }
    answer(request, response, 200, found);
  };
}

/** Reads the page and its files once, on the first request that needs them. */
function readAssets(): Map<string, Asset> {
  const here = new URL('./', import.meta.url);
  const read = (file: string) => readFileSync(new URL(file, here), 'utf8');
  const assets = new Map<string, Asset>([
    [WEBHOOKS_PAGE_PATH, { type: 'text/html; charset=utf-8', body: dashboardPageHtml() }],
    [`${ASSETS_PATH}dashboard.css`, { type: 'text/css; charset=utf-8', body: read('dashboard.css') }],
  ]);
  for (const file of SCRIPT_FILES) {
    assets.set(`${ASSETS_PATH}${file}`, { type: 'text/javascript; charset=utf-8', body: javaScriptOf(read(`browser/${file}`)) });
  }
  return assets;
}

/** The module as browsers run it: Node's own type stripping, which keeps every line where it was. */
function javaScriptOf(typeScript: string): string {
  // Node warns once that stripTypeScriptTypes is experimental; the service's log keeps to its own lines.
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning).includes('stripTypeScriptTypes')) (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return stripTypeScriptTypes(typeScript, { mode: 'strip' });
  } finally {
    process.emitWarning = emitWarning;
  }
}

function answer(
  request: IncomingMessage,
  response: ServerResponse,
  status: number,
  asset: Asset,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    ...GUARD_HEADERS,
    'Content-Type': asset.type,
    'Content-Length': Buffer.byteLength(asset.body),
    ...headers,
  });
  response.end(request.method === 'HEAD' ? undefined : asset.body);
}
