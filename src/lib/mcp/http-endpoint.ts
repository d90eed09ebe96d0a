// `/mcp` on the publish service: MCP over Streamable HTTP without sessions, for clients of protocol
// 2026-07-28 (each request carries its own _meta envelope) and of 2025-11-25 (initialize, then each
// POST answered by a fresh server: the SDK's stateless fallback), so any number of clients and
// restarts need no session state. A request with an API key gets every tool; one without gets the
// read-only tools; a key that is unknown or revoked is refused.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, localhostAllowedHostnames, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { bearerToken, type SubmissionContext } from '../publish/index.ts';
import { openPublishedSite } from './published-site.ts';
import { publishTools } from './publish-tools.ts';
import { readTools } from './read-tools.ts';
import { createGarmentsServer } from './server.ts';
import { openSiteSearch } from './site-search.ts';

/** What the endpoint serves from. */
export interface McpEndpointOptions extends SubmissionContext {
  /** The built site the read-only tools read. */
  outDir: string;
  /** The site's configured address: its host is, with the loopback names, the only one a request may name. */
  site: string;
  /** The address the service listens on: on a loopback one, the Host header is checked too (a proxy in front of a public one may rename it). */
  listenHost: string;
  /** Largest record the publish API accepts, in bytes. */
  maxBodyBytes: number;
  longPollCapSeconds: number;
  log: (line: string) => void;
}

/** The `/mcp` endpoint. */
export interface McpEndpoint {
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Ends the exchanges in hand and stops the search's index server. */
  close(): Promise<void>;
}

/** Where the endpoint is mounted. */
export const MCP_PATH = '/mcp';

/** The caller, as the endpoint hands it to the server it makes for a request. */
const ORGANIZATION = 'organizationId';

/** Returns the endpoint. */
export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const { store, log } = options;
  const published = openPublishedSite(options.outDir);
  const search = openSiteSearch(options.outDir);
  const tools = [...readTools({ published, search }), ...publishTools(options)];
  const ownHostnames = [...localhostAllowedHostnames(), new URL(options.site).hostname];
  const checkHost = isLoopback(options.listenHost);
  // A record sent as JSON text is escaped inside the message: allow for that above the API's limit.
  const maxRequestBodySize = 2 * options.maxBodyBytes;
  const onerror = (error: Error) => log(`mcp: ${error.message}`);
  const mcp = createMcpHandler(
    ({ authInfo }) =>
      createGarmentsServer({ tools, published, organizationId: authInfo?.extra?.[ORGANIZATION] as string | undefined, log }),
    { legacy: 'stateless', maxRequestBodySize, onerror },
  );
  const serve = toNodeHandler(mcp, { maxRequestBodySize, onerror });

  return {
    async handle(request, response) {
      // A DNS-rebinding page names its own host in both Origin and Host: both are compared with what the service is.
      const { origin, host } = request.headers;
      if (!validateOriginHeader(origin, ownHostnames).ok)
        return refuse(response, 403, 'origin_refused', `requests from a page of ${String(origin).slice(0, 200)} are refused`);
      if (checkHost && !validateHostHeader(host, ownHostnames).ok)
        return refuse(response, 403, 'host_refused', `this service does not answer to the host ${String(host).slice(0, 200)}`);
      let organizationId: string | undefined;
      if (request.headers.authorization !== undefined) {
        const key = bearerToken(request.headers.authorization);
        if (key === undefined) {
          return refuse(
            response,
            401,
            'unauthorized',
            'send the API key as "Authorization: Bearer <key>", or no Authorization header for the read-only tools',
            { 'WWW-Authenticate': 'Bearer realm="garment-press"' },
          );
        }
        organizationId = await store.organizationForKey(key);
        if (organizationId === undefined) {
          return refuse(response, 401, 'invalid_api_key', 'the API key is unknown or revoked', {
            'WWW-Authenticate': 'Bearer realm="garment-press", error="invalid_token"',
          });
        }
      }
      if (request.method !== 'POST') {
        // No sessions: no stream to open (GET) and no session to end (DELETE).
        return refuse(response, 405, 'method_not_allowed', `${MCP_PATH} accepts POST (MCP Streamable HTTP, without sessions)`, {
          Allow: 'POST',
        });
      }
      const auth =
        organizationId === undefined
          ? {}
          : { auth: { token: '', clientId: organizationId, scopes: [], extra: { [ORGANIZATION]: organizationId } } };
      await serve(Object.assign(request, auth), response);
    },
    async close() {
      await mcp.close();
      await search.close();
    },
  };
}

/** Whether a listening address is a loopback one. @example isLoopback('127.0.0.1') → true; isLoopback('0.0.0.0') → false */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function refuse(response: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ error: { code, message } });
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    ...headers,
  });
  response.end(body);
}
