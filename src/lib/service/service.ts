// The composition root: opens the stores on SQLite or PostgreSQL, wires publish/, the webhook
// outbox and mcp/, and mounts /api/, /mcp and the static site on one HTTP server.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import type { DatabaseLocation } from '../database/index.ts';
import { DISK_FULL_ANSWER, diskReport, isDiskFull, spaceReserve } from '../disk-space.ts';
import { errorMessage, errorReport, GarmentPressError } from '../errors.ts';
import { createMcpEndpoint, MCP_PATH, type McpEndpoint } from '../mcp/index.ts';
import { checkOutputFolder } from '../pipeline/output-folder.ts';
import { requireDatabaseFile, watchDatabaseFile } from '../sqlite-database.ts';
import {
  type Clock,
  createApiHandler,
  createPublisher,
  DEFAULT_BODY_LIMIT_BYTES,
  declaresTooLarge,
  type InstanceHealth,
  LONG_POLL_CAP_SECONDS,
  readGarmentSlugs,
  refuseTooLarge,
  runSiteBuildProcess,
  type SiteBuildOutcome,
  type SiteBuildTarget,
  type SubmissionContext,
} from '../publish/index.ts';
import { recordValidator } from '../record/index.ts';
import { staticFilesHandler } from '../serve/static-files.ts';
import { describeAttempt, openOutbox } from '../webhooks/index.ts';
import { openServiceStores, type ServiceStores } from './stores.ts';

/** How the publish service is set up. Test-only settings say so. */
export interface PublishServiceOptions {
  /** Folder of the SQLite databases (tasks and keys in publish.db, deliveries in outbox.db) and the space reserve; created if missing. */
  dataDir: string;
  /** A PostgreSQL database (postgres://…) several instances share, holding what publish.db and outbox.db hold otherwise. */
  databaseUrl?: string;
  /** This instance's name in health and the build lease; default host:pid. */
  instance?: string;
  /** The stores' clock; default Date.now. */
  now?: Clock;
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
  /** Bytes kept free in the data folder (`.space-reserve`) for the databases to open on a full disk; default 4 MiB. */
  spaceReserveBytes?: number;
  /** Test only: how long a delivery attempt may take; default 10 s (spec section 8). */
  webhookTimeoutMs?: number;
  /** How the site is rebuilt; default the build CLI in a child process, whose id goes to `onStarted`. */
  buildSite?: (target: SiteBuildTarget, signal: AbortSignal, onStarted?: (pid: number) => void) => Promise<SiteBuildOutcome>;
  /** Where log lines go; default stdout with a timestamp. */
  log?: (line: string) => void;
}

/** A running service. */
export interface PublishService {
  /** The address it listens on, e.g. http://127.0.0.1:4321. */
  url: string;
  site: string;
  /** This instance's name, as health shows it. */
  instance: string;
  /** Where its state is: the data folder, or the PostgreSQL URL without its password. */
  databaseName: string;
  server: Server;
  /** What `submitPublish(submission, …)` (submission.ts), the one way every front (HTTP, MCP) makes a task, works with. */
  submission: SubmissionContext;
  /** Stops accepting, finishes or parks the work in hand, closes the databases. */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Starts the publish service: the API under /api/, MCP at /mcp, the built site everywhere else. */
export async function startPublishService(options: PublishServiceOptions): Promise<PublishService> {
  const { dataDir, recordsDir, outDir, port = 4321, host = '127.0.0.1', webhookClockOffsetMs = 0, now = Date.now } = options;
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
  const publishDb = path.join(dataDir, 'publish.db');
  const outboxDb = path.join(dataDir, 'outbox.db');
  const location: DatabaseLocation =
    options.databaseUrl === undefined ? { kind: 'sqlite', dataDir } : { kind: 'postgresql', url: options.databaseUrl };
  if (location.kind === 'sqlite' && existsSync(outboxDb)) {
    requireDatabaseFile(publishDb, `${outboxDb} beside it shows this data folder has served before`);
  }
  const reserve = spaceReserve(path.join(dataDir, '.space-reserve'), options.spaceReserveBytes ?? 4 * 1024 * 1024);
  /** Opens a database, giving up the space reserve once if the disk is too full for it to open. */
  const openOnFullDisk = async <T>(open: () => T | Promise<T>): Promise<T> => {
    try {
      return await open();
    } catch (error) {
      if (!isDiskFull(error) || !reserve.release()) throw error;
      log(`the disk is full: ${dataDir}/.space-reserve released so the databases open; free some space, then publishing resumes`);
      return open();
    }
  };
  const stores: ServiceStores = await openOnFullDisk(() =>
    openServiceStores(location, {
      now,
      log,
      ...(options.instance === undefined ? {} : { instance: options.instance }),
    }),
  );
  const { store, coordination } = stores;
  const policy = { allowLoopback: options.allowLoopbackCallbacks === true };
  // The outbox lives beside the other state: outbox.db in the data folder, or the same PostgreSQL database.
  const outbox = await openOnFullDisk(() =>
    openOutbox(stores.postgres ?? outboxDb, {
      secretFor: (organizationId) => store.signingSecret(organizationId),
      policy,
      ...(options.trustedCa === undefined ? {} : { trustedCa: options.trustedCa }),
      now: () => now() + webhookClockOffsetMs,
      ...(options.webhookTimeoutMs === undefined ? {} : { timeoutMs: options.webhookTimeoutMs }),
      onAttempt: (attempt) => log(describeAttempt(attempt)),
      onError: (error) => log(`webhook outbox error: ${errorMessage(error)}`),
    }),
  );

  reserve.keep();
  const storageFolders = { data: dataDir, records: recordsDir };
  // PostgreSQL's state is its server's to report (health's database.answers); the SQLite files are watched here.
  const databaseChecks = (location.kind === 'sqlite' ? [publishDb, outboxDb] : []).map((file) => watchDatabaseFile(file));
  const checkStorage = () => ({ databases: databaseChecks.map((check) => check()), disk: diskReport(storageFolders, reserve) });
  /** Refuses publishes while a disk is full (or the reserve is given up), telling the operator which. */
  const spaceProblem = () => {
    const disk = diskReport(storageFolders, reserve);
    if (disk.state === 'ok') return undefined;
    const free = disk.folders.map((folder) => `${folder.name} folder has ${folder.free_bytes} bytes free`).join('; ');
    log(`publish refused: the disk is full: ${free}; space reserve ${disk.reserve}`);
    return DISK_FULL_ANSWER;
  };

  // Garments already in the folder belong to nobody until an operator names an owner (admin `garment adopt` or `grant`).
  const found = await store.owners.noteFound(await readGarmentSlugs(recordsDir));
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
      log(`http ${request.method} ${pathname.slice(0, 200)}: internal error: ${errorReport(error)}`);
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
    await stores.close();
    throw error;
  }
  const address = server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  const site = options.site ?? `http://localhost:${actualPort}`;
  const buildSite = options.buildSite ?? runSiteBuildProcess;

  const publisher = createPublisher({
    store,
    coordination,
    outbox,
    recordsDir,
    site,
    buildSite: (signal, lease) =>
      buildSite({ recordsDir, outDir, site, ...(lease === undefined ? {} : { lease }) }, signal, (pid) =>
        log(`site build running as process ${pid} (its new site in ${outDir}.staging-${pid} until swapped in)`),
      ),
    ...(options.gatherMs === undefined ? {} : { gatherMs: options.gatherMs }),
    log,
  });
  const submission: SubmissionContext = { store, publisher, recordsDir, callbackPolicy: policy, log, spaceProblem };
  handleApi = createApiHandler({
    store,
    submission,
    publisher,
    outbox,
    callbackPolicy: policy,
    maxBodyBytes,
    checkStorage,
    ...(options.longPollCapSeconds === undefined ? {} : { longPollCapSeconds: options.longPollCapSeconds }),
    instanceHealth: async (): Promise<InstanceHealth> => {
      const [answers, holder] = await Promise.all([databaseAnswers(stores), coordination.leaseHolder().catch(() => null)]);
      return {
        instance: coordination.instance,
        database: { kind: location.kind, ...answers },
        build_lease: { holder, held_here: coordination.holdsLease },
      };
    },
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
  await coordination.start();
  outbox.start();

  return {
    url,
    site,
    instance: coordination.instance,
    databaseName: stores.postgres?.name ?? dataDir,
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
      await stores.close();
    },
  };
}

/** How long health waits for the database before saying it does not answer. */
const DATABASE_ANSWER_MS = 2000;

/** Whether the database answers a small read within DATABASE_ANSWER_MS, and if not why. */
async function databaseAnswers({ store }: ServiceStores): Promise<{ answers: boolean; error?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_ANSWER_MS} ms`)), DATABASE_ANSWER_MS);
  });
  try {
    await Promise.race([store.taskCounts(), timeout]);
    return { answers: true };
  } catch (error) {
    return { answers: false, error: errorMessage(error) };
  } finally {
    clearTimeout(timer);
  }
}
