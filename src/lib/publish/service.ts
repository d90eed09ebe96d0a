import { mkdirSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { checkOutputFolder } from '../pipeline/output-folder.ts';
import { GarmentPressError } from '../errors.ts';
import { recordValidator } from '../record/index.ts';
import { staticFilesHandler } from '../serve/static-files.ts';
import { describeAttempt, openOutbox } from '../webhooks/index.ts';
import { createMcpEndpoint, MCP_PATH, type McpEndpoint } from '../mcp/index.ts';
import { createApiHandler } from './api.ts';
import { LONG_POLL_CAP_SECONDS } from './long-poll.ts';
import { createPublisher } from './publisher.ts';
import { readGarmentSlugs } from './records-folder.ts';
import type { SubmissionContext } from './submission.ts';
import { DEFAULT_BODY_LIMIT_BYTES, declaresTooLarge, refuseTooLarge } from './request-body.ts';
import { runSiteBuildProcess, type SiteBuildOutcome, type SiteBuildTarget } from './site-build-process.ts';
import { openPublishStore } from './store.ts';

/** How the publish service is set up. Test-only settings say so. */
export interface PublishServiceOptions {
  /** Folder of the SQLite databases (tasks and keys in publish.db, deliveries in outbox.db); created if missing. */
  dataDir: string;
  recordsDir: string;
  /** The built site, served outside /api/ and rebuilt by publishes. */
  outDir: string;
  port?: number;
  host?: string;
  /** The site's absolute address; default http://localhost:<port>. */
  site?: string;
  maxBodyBytes?: number;
  /** How long a client may take to send a whole request once it starts (a slow body holds a connection); default 30 s. */
  bodyTimeoutMs?: number;
  longPollCapSeconds?: number;
  /** How long an idle service gathers publishes into one build; default 150 ms. */
  gatherMs?: number;
  /** Test only: accept and deliver to loopback callback URLs. */
  allowLoopbackCallbacks?: boolean;
  /** Test only: an extra certificate authority trusted for deliveries (a self-signed receiver). */
  trustedCa?: string | Buffer;
  /** Test only: shifts the outbox clock, so a retry scheduled minutes ahead is due now. */
  webhookClockOffsetMs?: number;
  /** Test only: how long a delivery attempt may take; default 10 s (spec section 8). */
  webhookTimeoutMs?: number;
  /** How the site is rebuilt; default the build CLI in a child process. */
  buildSite?: (target: SiteBuildTarget, signal: AbortSignal) => Promise<SiteBuildOutcome>;
  /** Where log lines go; default stdout with a timestamp. */
  log?: (line: string) => void;
}

/** A running service. */
export interface PublishService {
  /** The address it listens on, e.g. http://127.0.0.1:4321. */
  url: string;
  site: string;
  server: Server;
  /** What `submitPublish(submission, …)` (submission.ts), the one way every front (HTTP, MCP) makes a task, works with. */
  submission: SubmissionContext;
  /** Stops accepting, finishes or parks the work in hand, closes the databases. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Starts the publish service: the API under /api/, MCP at /mcp, the built site everywhere else. */
export async function startPublishService(options: PublishServiceOptions): Promise<PublishService> {
  const { dataDir, recordsDir, outDir, port = 4321, host = '127.0.0.1', webhookClockOffsetMs = 0 } = options;
  const log = options.log ?? ((line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`));
  // A mistyped folder would otherwise become a site of one record at the first publish.
  if (!statSync(recordsDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new GarmentPressError(`records folder ${recordsDir} does not exist; create it, or pass the right --records`);
  }
  // A site build replaces the output folder: refuse one that would take the records or the databases with it.
  await checkOutputFolder(outDir, { records: recordsDir, 'publish service data': dataDir });
  // Compiling the schema takes about a second; do it before the first publish waits on it.
  recordValidator();
  mkdirSync(dataDir, { recursive: true });
  const store = openPublishStore(path.join(dataDir, 'publish.db'));
  const policy = { allowLoopback: options.allowLoopbackCallbacks === true };
  const outbox = await openOutbox(path.join(dataDir, 'outbox.db'), {
    secretFor: (organizationId) => store.signingSecret(organizationId),
    policy,
    ...(options.trustedCa === undefined ? {} : { trustedCa: options.trustedCa }),
    now: () => Date.now() + webhookClockOffsetMs,
    ...(options.webhookTimeoutMs === undefined ? {} : { timeoutMs: options.webhookTimeoutMs }),
    onAttempt: (attempt) => log(describeAttempt(attempt)),
    onError: (error) => log(`webhook outbox error: ${error instanceof Error ? error.message : String(error)}`),
  });

  // Garments already in the folder belong to nobody until an operator names an owner (admin `garment adopt` or `grant`).
  const found = store.owners.noteFound(await readGarmentSlugs(recordsDir));
  if (found.length > 0)
    log(
      `records folder: ${found.length} garment(s) found with no owner; publishable after "npm run admin -- garment adopt" or "garment grant"`,
    );

  let closing = false;
  let handleApi: ((request: IncomingMessage, response: ServerResponse) => Promise<void>) | undefined;
  let mcp: McpEndpoint | undefined;
  const serveStatic = staticFilesHandler(outDir);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_BODY_LIMIT_BYTES;

  const bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
  // Node answers 408 and closes a connection whose request is not whole by requestTimeout, checked every interval.
  const timeouts = {
    requestTimeout: bodyTimeoutMs,
    headersTimeout: Math.min(60_000, bodyTimeoutMs),
    connectionsCheckingInterval: Math.min(1000, Math.ceil(bodyTimeoutMs / 4)),
  };
  const server = createServer(timeouts, (request, response) => {
    const started = performance.now();
    const pathname = (request.url ?? '/').split('?')[0]!;
    // The query string is left out: a callback URL may carry a token.
    response.once('close', () => {
      const status = response.writableFinished ? String(response.statusCode) : 'aborted';
      log(`http ${request.method} ${pathname.slice(0, 200)} ${status} ${Math.round(performance.now() - started)} ms`);
    });
    if (closing) {
      response.setHeader('Connection', 'close');
      if (request.method === 'POST') {
        response.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '5' });
        response.end(JSON.stringify({ error: { code: 'shutting_down', message: 'the service is stopping; publish again in a moment' } }));
        return;
      }
    }
    if (declaresTooLarge(request, maxBodyBytes)) {
      refuseTooLarge(request, response, maxBodyBytes);
      return;
    }
    const handle = pathname === '/api' || pathname.startsWith('/api/') ? handleApi! : pathname === MCP_PATH ? mcp!.handle : serveStatic;
    handle(request, response).catch((error: unknown) => {
      log(
        `http ${request.method} ${pathname.slice(0, 200)}: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      if (!response.headersSent) {
        response.writeHead(500, { 'Content-Type': 'application/json; charset=utf-8', Connection: 'close' });
        response.end(JSON.stringify({ error: { code: 'internal_error', message: 'the service failed to answer; see its log' } }));
      } else {
        response.destroy();
      }
    });
  });
  // A client announcing a body over the limit gets 413 instead of 100, and sends none of it.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!declaresTooLarge(request, maxBodyBytes)) response.writeContinue();
    server.emit('request', request, response);
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await outbox.close();
    store.close();
    throw error;
  }
  const address = server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  const site = options.site ?? `http://localhost:${actualPort}`;
  const buildSite = options.buildSite ?? runSiteBuildProcess;

  const publisher = createPublisher({
    store,
    outbox,
    recordsDir,
    site,
    buildSite: (signal) => buildSite({ recordsDir, outDir, site }, signal),
    ...(options.gatherMs === undefined ? {} : { gatherMs: options.gatherMs }),
    log,
  });
  const submission: SubmissionContext = { store, publisher, recordsDir, callbackPolicy: policy, log };
  handleApi = createApiHandler({
    store,
    submission,
    publisher,
    outbox,
    callbackPolicy: policy,
    maxBodyBytes,
    ...(options.longPollCapSeconds === undefined ? {} : { longPollCapSeconds: options.longPollCapSeconds }),
  });
  mcp = createMcpEndpoint({
    ...submission,
    log,
    outDir,
    site,
    listenHost: host,
    maxBodyBytes,
    longPollCapSeconds: options.longPollCapSeconds ?? LONG_POLL_CAP_SECONDS,
  });
  publisher.resume();
  outbox.start();

  return {
    url,
    site,
    server,
    submission,
    async close({ graceMs = 30_000 } = {}) {
      if (closing) return;
      closing = true;
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      await publisher.stop({ graceMs });
      await outbox.close();
      await mcp!.close();
      // Long polls were answered by publisher.stop; keep-alive connections are let go now.
      server.closeIdleConnections();
      const forceClose = setTimeout(() => server.closeAllConnections(), 2000);
      await serverClosed;
      clearTimeout(forceClose);
      store.close();
    },
  };
}
