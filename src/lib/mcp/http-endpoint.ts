// `/mcp` on the publish service: MCP over Streamable HTTP, stateless (each POST is one exchange,
// so any number of clients and restarts need no session state). A request with an API key gets
// every tool; one without gets the read-only tools; a key that is unknown or revoked is refused.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
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
  /** Largest record the publish API accepts, in bytes. */
  maxBodyBytes: number;
  longPollCapSeconds: number;
  log: (line: string) => void;
}

/** The `/mcp` endpoint. */
export interface McpEndpoint {
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Stops the search's index server. */
  close(): Promise<void>;
}

/** Where the endpoint is mounted. */
export const MCP_PATH = '/mcp';

/** Returns the endpoint. */
export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const { store, log } = options;
  const published = openPublishedSite(options.outDir);
  const search = openSiteSearch(options.outDir);
  const tools = [...readTools({ published, search }), ...publishTools(options)];

  return {
    async handle(request, response) {
      const origin = request.headers.origin;
      // A page of another site must not drive the service through its reader's browser (DNS rebinding too).
      if (origin !== undefined && URL.parse(origin)?.host !== request.headers.host) {
        return refuse(response, 403, 'cross_origin', 'requests from a web page of another origin are refused');
      }
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
        // Stateless: no stream to open (GET) and no session to end (DELETE).
        return refuse(response, 405, 'method_not_allowed', `${MCP_PATH} accepts POST (MCP Streamable HTTP, without sessions)`, {
          Allow: 'POST',
        });
      }
      const server = createGarmentsServer({ tools, published, organizationId, log });
      // A record sent as JSON text is escaped inside the message: allow for that above the API's limit.
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: 2 * options.maxBodyBytes });
      response.once('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request, response);
    },
    close: () => search.close(),
  };
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
