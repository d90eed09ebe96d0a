// Shared by the publish and MCP service tests: a workspace (records, output and data folders, a
// certificate, organizations), a self-signed HTTPS receiver that verifies every delivery with the
// webhook library, the `serve` process, JSON requests, folder fingerprints and sample records.
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cpSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Certificate, makeCertificate } from '../../../src/lib/bench/loopback-certificate.ts';
import { type ReceivedEvent, readVerifiedEvent } from '../webhooks/support/received-event.ts';

export type { Certificate };
import { copyOf, projectRoot, sampleRecords } from '../../support/records.ts';
import { node } from '../../support/run.ts';

/** An organization the admin CLI made: its id, its first API key and its webhook signing secret. */
export interface Organization {
  id: string;
  key: string;
  secret: string;
}

/** What an admin CLI run printed, and its exit status. */
export interface AdminRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** The folders and parties a service test starts from, all in one temporary folder. */
export interface ServiceWorkspace {
  work: string;
  /** A copy of the sample records. */
  recordsDir: string;
  /** Where the site is built; not made yet. */
  outDir: string;
  /** The service's databases. */
  dataDir: string;
  /** For a receiver on 127.0.0.1, which the service is told to trust. */
  certificate: Certificate;
  /** One per name given, in order. */
  organizations: Organization[];
  /** Runs the admin CLI on the data folder; it does not block, so a service running in this process keeps answering. */
  adminRun: (args: string[]) => Promise<AdminRun>;
  /** Runs the admin CLI with `--json` and returns its answer; throws, with what it printed, when it fails. */
  admin: (...args: string[]) => Promise<any>;
}

/**
 * A service test's workspace: a temporary folder (named from `prefix`) with a copy of records/, an
 * output and a data folder, a certificate for 127.0.0.1, and an organization made by the admin CLI
 * for each name, with its API key and its signing secret revealed; in `databaseUrl` when given.
 */
export async function serviceWorkspace(
  prefix: string,
  organizationNames: readonly string[],
  { databaseUrl }: { databaseUrl?: string } = {},
): Promise<ServiceWorkspace> {
  const work = mkdtempSync(path.join(tmpdir(), prefix));
  const recordsDir = path.join(work, 'records');
  const dataDir = path.join(work, 'data');
  cpSync(path.join(projectRoot, 'records'), recordsDir, { recursive: true });
  const certificate = makeCertificate(work);
  const adminRun = async (args: string[]): Promise<AdminRun> => {
    try {
      const { stdout, stderr } = await execFileAsync(
        node,
        [
          path.join(projectRoot, 'src/cli/admin.ts'),
          ...args,
          ...(databaseUrl === undefined ? ['--data', dataDir] : ['--database', databaseUrl]),
        ],
        {
          cwd: projectRoot,
        },
      );
      return { status: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { status: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  const admin = async (...args: string[]) => {
    const result = await adminRun([...args, '--json']);
    if (result.status !== 0) throw new Error(`admin ${args.join(' ')} exited with ${result.status}:\n${result.stderr}`);
    return JSON.parse(result.stdout);
  };
  const organizations: Organization[] = [];
  for (const name of organizationNames) {
    const made = await admin('org', 'create', '--name', name);
    const { signing_secret: secret } = await admin('secret', 'reveal', '--org', made.organization_id);
    organizations.push({ id: made.organization_id, key: made.api_key, secret });
  }
  return { work, recordsDir, outDir: path.join(work, 'out'), dataDir, certificate, organizations, adminRun, admin };
}

const execFileAsync = promisify(execFile);

/** One request the receiver got. */
export interface Delivery {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  /** The verified event, or undefined when verification failed. */
  event?: ReceivedEvent;
  rejection?: string;
  /** The status the receiver answered. */
  answered: number;
}

/** A receiver's answer with headers, such as a 503 with Retry-After. */
export interface ReceiverAnswer {
  status: number;
  headers: Record<string, string>;
}

/** A local HTTPS receiver. */
export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Verified deliveries that were accepted (2xx), by handle. */
  acceptedFor(handle: string): Delivery[];
  /** Decides the status (and headers) for a verified delivery; default 200. */
  answerWith(decide: (delivery: Delivery) => number | ReceiverAnswer): void;
  close(): Promise<void>;
}

/**
 * Starts an HTTPS receiver on loopback that verifies each delivery's signature over the raw
 * body with the secrets `secrets()` returns at that moment; a bad signature gets 400.
 */
export async function startReceiver(certificate: Certificate, secrets: () => string[]): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  let decide: (delivery: Delivery) => number | ReceiverAnswer = () => 200;
  const server: Server = createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const delivery: Delivery = { path: request.url ?? '', headers: request.headers, rawBody: raw.toString('utf8'), answered: 0 };
      let headers: Record<string, string> = {};
      try {
        const header = request.headers['x-svc-signature'];
        delivery.event = readVerifiedEvent(raw, typeof header === 'string' ? header : undefined, { secrets: secrets() });
        const answer = decide(delivery);
        delivery.answered = typeof answer === 'number' ? answer : answer.status;
        headers = typeof answer === 'number' ? {} : answer.headers;
      } catch (error) {
        delivery.rejection = (error as Error).message;
        delivery.answered = 400;
      }
      deliveries.push(delivery);
      response.writeHead(delivery.answered, { 'Content-Type': 'text/plain', ...headers }).end(delivery.answered < 300 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `https://127.0.0.1:${port}`,
    deliveries,
    acceptedFor: (handle) => deliveries.filter((d) => d.event?.handle === handle && d.answered >= 200 && d.answered < 300),
    answerWith(next) {
      decide = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An answer read as text, with its status and headers. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: () => any;
}

/** Sends a request to the service with an optional API key and JSON body. */
export async function call(
  baseUrl: string,
  pathAndQuery: string,
  options: { method?: string; key?: string; body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined =
    typeof options.rawBody === 'string' || options.rawBody === undefined ? options.rawBody : new Uint8Array(options.rawBody);
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${pathAndQuery}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

/** A running `serve` process. */
export interface ServeProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Everything it printed so far. */
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `node src/cli/serve.ts` on a free port with `args`, and waits for the address it listens on. */
export async function startServe(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ServeProcess> {
  const child = spawn(node, [path.join(projectRoot, 'src/cli/serve.ts'), '--port', '0', ...args], { cwd: projectRoot, env });
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString('utf8'));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await eventually(() => /^listening on (http:\/\/\S+)/m.exec(output)?.[1], 20_000, `serve to listen; it printed:\n${output}`);
  return { url, child, output: () => output, exited };
}

/** Ends a service started by startServe, if it still runs. */
export async function stopServe(service: ServeProcess | undefined): Promise<void> {
  if (service === undefined || service.child.exitCode !== null) return;
  service.child.kill('SIGTERM');
  await service.exited;
}

export { fingerprint } from '../../support/fingerprint.ts';

/** A copy of a sample record of the projection, under a new slug so it makes a new page. */
export function sampleRecordAs(slug: string, projection: 'svc' | 'tech' = 'svc'): Record<string, unknown> {
  const sample = sampleRecords().find(({ record }) => record.projection === projection);
  if (sample === undefined) throw new Error(`records/ has no ${projection} sample record`);
  return { ...copyOf(sample.record), slug } as unknown as Record<string, unknown>;
}

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The UUID form handles take. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
