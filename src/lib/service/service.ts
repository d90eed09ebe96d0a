// The composition root: opens the stores on SQLite or PostgreSQL, wires publish/, the webhook
// outbox and mcp/, and mounts /api/, /mcp, the dashboard and the static site on one HTTP server.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { dashboardHandler, isDashboardPath } from '../dashboard/index.ts';
import { type DatabaseLocation, isDatabaseUnavailable } from '../database/index.ts';
import { DISK_FULL_ANSWER, diskReport, isDiskFull, type SpaceReserve, spaceReserve } from '../disk-space.ts';
import { errorMessage, errorReport, GarmentPressError } from '../errors.ts';
import { createMcpEndpoint, MCP_PATH } from '../mcp/index.ts';
import { checkOutputFolder } from '../pipeline/output-folder.ts';
import { requireDatabaseFile, watchDatabaseFile } from '../sqlite-database.ts';
import {
  type Clock,
  createApiHandler,
  createPublisher,
  DEFAULT_BODY_LIMIT_BYTES,
  declaresTooLarge,
  type InstanceHealth,
  type StorageReport,
  LONG_POLL_CAP_SECONDS,
  readGarmentSlugs,
  refuseTooLarge,
  runSiteBuildProcess,
  type SiteBuildOutcome,
  type SiteBuildTarget,
  type SubmissionContext,
} from '../publish/index.ts';
import { recordValidator } from '../record/index.ts';
import { KEEP_ALIVE_MS, staticFilesHandler } from '../serve/static-files.ts';
import { describeAttempt, type Outbox, openOutbox } from '../webhooks/index.ts';
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

/** Starts the publish service: the API under /api/, MCP at /mcp, the dashboard under /dashboard/, the built site everywhere else. */
export async function startPublishService(options: PublishServiceOptions): Promise<PublishService> {
  const { dataDir, recordsDir, outDir, port = 4321, host = '127.0.0.1' } = options;
  const log = options.log ?? ((line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`));
  await checkFolders(options);
  const state = await openState(options, log);
  const { stores, outbox } = state;
  const storage = storageChecks(options, state, log);
  // Garments already in the folder belong to nobody until an operator names an owner (admin `garment adopt` or `grant`).
  const found = await stores.store.owners.noteFound(await readGarmentSlugs(recordsDir));
  if (found.length > 0)
    log(
      `records folder: ${found.length} garment(s) found with no owner; publishable after "npm run admin -- garment adopt" or "garment grant"`,
    );

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const routes: { api?: RequestHandler; mcp?: RequestHandler; closing: boolean } = { closing: false };
  const serveStatic = staticFilesHandler(outDir);
  const serveDashboard = dashboardHandler();
  const server = createServiceServer({
    maxBodyBytes,
    bodyTimeoutMs: options.bodyTimeoutMs ?? 30_000,
    log,
    closing: () => routes.closing,
    handlerFor: (pathname) => {
      if (pathname === '/api' || pathname.startsWith('/api/')) return routes.api!;
      if (pathname === MCP_PATH) return routes.mcp!;
      return isDashboardPath(pathname) ? serveDashboard : serveStatic;
    },
  });
  try {
    await listen(server, port, host);
  } catch (error) {
    await outbox.close();
    await stores.close();
    throw error;
  }
  const address = server.address();
  const actualPort = typeof address === 'object' && address !== null ? address.port : port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  const site = options.site ?? `http://localhost:${actualPort}`;
  const { publisher, submission, api, mcp } = wireService(options, { state, storage, site, maxBodyBytes, log });
  routes.api = api;
  routes.mcp = mcp.handle;
  publisher.resume();
  await stores.coordination.start();
  outbox.start();

  return {
    url,
    site,
    instance: stores.coordination.instance,
    databaseName: stores.postgres?.name ?? dataDir,
    server,
    submission,
    async close({ graceMs = 30_000 } = {}) {
      if (routes.closing) return;
      routes.closing = true;
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      await publisher.stop({ graceMs });
      await outbox.close();
      await mcp.close();
      // Long polls were answered by publisher.stop; keep-alive connections are let go now.
      server.closeIdleConnections();
      const forceClose = setTimeout(() => server.closeAllConnections(), 2000);
      await serverClosed;
      clearTimeout(forceClose);
      await stores.close();
    },
  };
}

type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/** Refuses folders the service must not run on; compiles the schema before the first publish waits on it. */
async function checkFolders({ recordsDir, outDir, dataDir }: PublishServiceOptions): Promise<void> {
  // A mistyped folder would otherwise become a site of one record at the first publish.
  if (!statSync(recordsDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new GarmentPressError(`records folder ${recordsDir} does not exist; create it, or pass the right --records`);
  }
  // A site build replaces the output folder: refuse one that would take the records or the databases with it.
  await checkOutputFolder(outDir, { records: recordsDir, 'publish service data': dataDir });
  // Compiling the schema takes about a second.
  recordValidator();
  mkdirSync(dataDir, { recursive: true });
}

/** The service's state, open: the stores on their database, the outbox beside them, the data folder's space reserve. */
interface ServiceState {
  location: DatabaseLocation;
  stores: ServiceStores;
  outbox: Outbox;
  reserve: SpaceReserve;
  /** The SQLite files, when that is where the state lives. */
  sqliteFiles: string[];
}

/** Opens the stores and the outbox on SQLite or PostgreSQL, giving up the space reserve once if the disk is too full for them to open. */
async function openState(options: PublishServiceOptions, log: (line: string) => void): Promise<ServiceState> {
  const { dataDir, now = Date.now, webhookClockOffsetMs = 0 } = options;
  const publishDb = path.join(dataDir, 'publish.db');
  const outboxDb = path.join(dataDir, 'outbox.db');
  const location: DatabaseLocation =
    options.databaseUrl === undefined ? { kind: 'sqlite', dataDir } : { kind: 'postgresql', url: options.databaseUrl };
  if (location.kind === 'sqlite' && existsSync(outboxDb)) {
    requireDatabaseFile(publishDb, `${outboxDb} beside it shows this data folder has served before`);
  }
  const reserve = spaceReserve(path.join(dataDir, '.space-reserve'), options.spaceReserveBytes ?? 4 * 1024 * 1024);
  const openOnFullDisk = async <T>(open: () => T | Promise<T>): Promise<T> => {
    try {
      return await open();
    } catch (error) {
      if (!isDiskFull(error) || !reserve.release()) throw error;
      log(`the disk is full: ${dataDir}/.space-reserve released so the databases open; free some space, then publishing resumes`);
      return open();
    }
  };
  const instance = options.instance === undefined ? {} : { instance: options.instance };
  // The outbox looks for due attempts every second: a database that is down would fill the log.
  const outboxErrors = withoutRepeats(log, 60_000);
  const stores = await openOnFullDisk(() => openServiceStores(location, { now, log, ...instance }));
  // The outbox lives beside the other state: outbox.db in the data folder, or the same PostgreSQL database.
  const outbox = await openOnFullDisk(() =>
    openOutbox(stores.postgres ?? outboxDb, {
      secretFor: (organizationId) => stores.store.signingSecret(organizationId),
      policy: callbackPolicyOf(options),
      ...(options.trustedCa === undefined ? {} : { trustedCa: options.trustedCa }),
      now: () => now() + webhookClockOffsetMs,
      ...(options.webhookTimeoutMs === undefined ? {} : { timeoutMs: options.webhookTimeoutMs }),
      onAttempt: (attempt) => log(describeAttempt(attempt)),
      onError: (error) => outboxErrors(`webhook outbox error: ${errorMessage(error)}`),
    }),
  );
  reserve.keep();
  return { location, stores, outbox, reserve, sqliteFiles: location.kind === 'sqlite' ? [publishDb, outboxDb] : [] };
}

/** Logs a line unless the same line was logged less than `windowMs` ago. */
function withoutRepeats(log: (line: string) => void, windowMs: number): (line: string) => void {
  let last = '';
  let loggedAt = Number.NEGATIVE_INFINITY;
  return (line) => {
    if (line === last && performance.now() - loggedAt < windowMs) return;
    last = line;
    loggedAt = performance.now();
    log(line);
  };
}

function callbackPolicyOf(options: PublishServiceOptions) {
  return { allowLoopback: options.allowLoopbackCallbacks === true };
}

/** What health reports of storage, and the refusal of publishes while a disk is full. */
interface StorageChecks {
  checkStorage: () => StorageReport;
  /** The answer a publish gets while a disk is full (or the reserve is given up), told to the operator too; undefined when there is room. */
  spaceProblem: () => string | undefined;
}

function storageChecks({ dataDir, recordsDir }: PublishServiceOptions, state: ServiceState, log: (line: string) => void): StorageChecks {
  const folders = { data: dataDir, records: recordsDir };
  // PostgreSQL's state is its server's to report (health's database.answers); the SQLite files are watched here.
  const databaseChecks = state.sqliteFiles.map((file) => watchDatabaseFile(file));
  return {
    checkStorage: () => ({ databases: databaseChecks.map((check) => check()), disk: diskReport(folders, state.reserve) }),
    spaceProblem() {
      const disk = diskReport(folders, state.reserve);
      if (disk.state === 'ok') return undefined;
      const free = disk.folders.map((folder) => `${folder.name} folder has ${folder.free_bytes} bytes free`).join('; ');
      log(`publish refused: the disk is full: ${free}; space reserve ${disk.reserve}`);
      return DISK_FULL_ANSWER;
    },
  };
}

/** The HTTP server: logs each request, refuses publishes while closing and bodies over the limit, answers 500 for a handler's failure. */
function createServiceServer(settings: {
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  log: (line: string) => void;
  closing: () => boolean;
  handlerFor: (pathname: string) => RequestHandler;
}): Server {
  const { maxBodyBytes, bodyTimeoutMs, log } = settings;
  // Node answers 408 and closes a connection whose request is not whole by requestTimeout, checked every interval.
  const timeouts = {
    requestTimeout: bodyTimeoutMs,
    headersTimeout: Math.min(60_000, bodyTimeoutMs),
    connectionsCheckingInterval: Math.min(1000, Math.ceil(bodyTimeoutMs / 4)),
    keepAliveTimeout: KEEP_ALIVE_MS,
  };
  const server = createServer(timeouts, (request, response) => {
    const started = performance.now();
    const pathname = (request.url ?? '/').split('?')[0]!;
    // The query string is left out: a callback URL may carry a token.
    response.once('close', () => {
      const status = response.writableFinished ? String(response.statusCode) : 'aborted';
      log(`http ${request.method} ${pathname.slice(0, 200)} ${status} ${Math.round(performance.now() - started)} ms`);
    });
    if (settings.closing()) {
      response.setHeader('Connection', 'close');
      if (request.method === 'POST') {
        sendError(response, 503, 'shutting_down', 'the service is stopping; publish again in a moment', { 'Retry-After': '5' });
        return;
      }
    }
    if (declaresTooLarge(request, maxBodyBytes)) {
      refuseTooLarge(request, response, maxBodyBytes);
      return;
    }
    settings
      .handlerFor(pathname)(request, response)
      .catch((error: unknown) => answerFailure(request, response, pathname, error, log));
  });
  // A client announcing a body over the limit gets 413 instead of 100, and sends none of it.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!declaresTooLarge(request, maxBodyBytes)) response.writeContinue();
    server.emit('request', request, response);
  });
  return server;
}

/** Answers a request whose handler threw: 503 while the database is unavailable, else 500; the error in the log. */
function answerFailure(request: IncomingMessage, response: ServerResponse, pathname: string, error: unknown, log: (line: string) => void) {
  const unavailable = isDatabaseUnavailable(error);
  const what = unavailable ? `the database does not answer: ${errorMessage(error)}` : `internal error: ${errorReport(error)}`;
  log(`http ${request.method} ${pathname.slice(0, 200)}: ${what}`);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  if (unavailable) {
    const message = 'the service cannot reach its database just now; nothing was changed, try again in a moment';
    sendError(response, 503, 'database_unavailable', message, { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });
    return;
  }
  sendError(response, 500, 'internal_error', 'the service failed to answer; see its log', { Connection: 'close' });
}

/** What a request refused while the database is unavailable is told to wait: about one lease check. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

function sendError(response: ServerResponse, status: number, code: string, message: string, headers: Record<string, string>) {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify({ error: { code, message } }));
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Wires the publisher, the submission every front shares, the API and MCP over the open state. */
function wireService(
  options: PublishServiceOptions,
  wiring: { state: ServiceState; storage: StorageChecks; site: string; maxBodyBytes: number; log: (line: string) => void },
) {
  const { state, storage, site, maxBodyBytes, log } = wiring;
  const { recordsDir, outDir, host = '127.0.0.1' } = options;
  const { stores, outbox } = state;
  const { store, coordination } = stores;
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
  const policy = callbackPolicyOf(options);
  const submission: SubmissionContext = { store, publisher, recordsDir, callbackPolicy: policy, log, spaceProblem: storage.spaceProblem };
  const api = createApiHandler({
    store,
    submission,
    publisher,
    outbox,
    callbackPolicy: policy,
    maxBodyBytes,
    checkStorage: storage.checkStorage,
    ...(options.longPollCapSeconds === undefined ? {} : { longPollCapSeconds: options.longPollCapSeconds }),
    instanceHealth: async (): Promise<InstanceHealth> => {
      const [answers, holder] = await Promise.all([databaseAnswers(stores), coordination.leaseHolder().catch(() => null)]);
      return {
        instance: coordination.instance,
        database: { kind: state.location.kind, ...answers },
        build_lease: { holder, held_here: coordination.holdsLease },
      };
    },
  });
  const mcp = createMcpEndpoint({
    ...submission,
    log,
    outDir,
    site,
    listenHost: host,
    maxBodyBytes,
    longPollCapSeconds: options.longPollCapSeconds ?? LONG_POLL_CAP_SECONDS,
  });
  return { publisher, submission, api, mcp };
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
