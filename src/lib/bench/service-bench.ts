// The service bench: publishes of distinct garments with callback URLs sent at once to one or two
// `serve` processes on SQLite or PostgreSQL, while a reader fetches a page; what the publisher,
// the receiver and the reader saw.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatabaseLocation } from '../database/index.ts';
import { openServiceStores } from '../service/index.ts';
import { runSiteBuildProcess } from '../publish/index.ts';
import { makeCertificate } from './loopback-certificate.ts';

const serveCli = fileURLToPath(new URL('../../cli/serve.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** The address the bench's sites are built for. */
export const BENCH_SITE = 'https://garments.example';

/** One bench run's set-up. */
export interface ServiceScenario {
  name: string;
  /** Where the state lives; a PostgreSQL database must be empty. */
  database: DatabaseLocation;
  instances: number;
  publishes: number;
}

/** Latencies in milliseconds, as percentiles. */
export interface Latencies {
  count: number;
  p50: number;
  p99: number;
}

/** What one scenario measured. */
export interface ServiceMeasure {
  scenario: string;
  instances: number;
  publishes: number;
  /** Time from sending a publish to its 202. */
  accepted: Latencies;
  /** From the first publish sent to the last task terminal, in seconds. */
  allTerminalSeconds: number;
  statuses: Record<string, number>;
  builds: number;
  /** Events the receiver accepted, and for how many distinct tasks. */
  deliveries: { received: number; tasks: number };
  /** Page GETs made while the tasks were running. */
  pageGets: Latencies;
  /** Publishes and page reads answered per second while the tasks ran. */
  requestsPerSecond: number;
}

/** Runs one scenario in `workDir` (a new folder); `log` gets progress lines. */
export async function runServiceScenario(scenario: ServiceScenario, workDir: string, log: (line: string) => void): Promise<ServiceMeasure> {
  const recordsDir = path.join(workDir, 'records');
  const outDir = path.join(workDir, 'out');
  mkdirSync(workDir, { recursive: true });
  cpSync(path.join(projectRoot, 'records'), recordsDir, { recursive: true });
  const template = sampleRecord(recordsDir);
  log(`${scenario.name}: building the site once`);
  const built = await runSiteBuildProcess({ recordsDir, outDir, site: BENCH_SITE });
  if (!built.ok) throw new Error(`the first build failed:\n${built.output}`);

  const stores = await openServiceStores(scenario.database, { instance: 'bench-admin' });
  const organization = await stores.store.createOrganization('Bench');
  const { key } = await stores.store.createApiKey(organization.id);
  await stores.store.signingSecret(organization.id);
  await stores.close();

  const certificate = makeCertificate(workDir);
  const received = new Map<string, number>();
  const receiver = createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
    request.resume();
    // Each publish has its own callback path: deliveries per path are deliveries per task.
    request.on('end', () => {
      const at = request.url ?? '';
      received.set(at, (received.get(at) ?? 0) + 1);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverPort = (receiver.address() as { port: number }).port;

  const children: BenchServe[] = [];
  try {
    const urls: string[] = [];
    for (let i = 0; i < scenario.instances; i++) {
      const dataDir = path.join(workDir, `data-${i}`);
      const database = scenario.database.kind === 'postgresql' ? { url: scenario.database.url, instance: `bench-${i}` } : undefined;
      const args = serveArguments({ recordsDir, outDir, dataDir, certificateFile: certificate.certFile, ...(database && { database }) });
      const started = await startBenchServe(args, path.join(workDir, `serve-${i}.log`));
      children.push(started);
      urls.push(started.url);
    }
    log(`${scenario.name}: ${urls.length} instance(s) listening; sending ${scenario.publishes} publishes`);

    const page = `/garments/${template.slug}/svc/`;
    const pageTimes: number[] = [];
    let reading = true;
    const readers = urls.map(async (url) => {
      while (reading) {
        const started = performance.now();
        const answer = await fetch(`${url}${page}`);
        await answer.arrayBuffer();
        pageTimes.push(performance.now() - started);
      }
    });

    const started = performance.now();
    const acceptTimes: number[] = [];
    const handles = await Promise.all(
      Array.from({ length: scenario.publishes }, async (_, i) => {
        const url = urls[i % urls.length]!;
        const slug = `bench-service-${i}`;
        const sent = performance.now();
        const answer = await fetch(`${url}/api/publish`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ record: { ...template, slug }, callback_url: `https://127.0.0.1:${receiverPort}/hooks/${slug}` }),
        });
        const text = await answer.text();
        acceptTimes.push(performance.now() - sent);
        if (answer.status !== 202) throw new Error(`publish ${i} answered ${answer.status}: ${text}`);
        return { handle: JSON.parse(text).handle as string, url: urls[(i + 1) % urls.length]! };
      }),
    );
    const statuses: Record<string, number> = {};
    await Promise.all(
      handles.map(async ({ handle, url }) => {
        for (;;) {
          const answer = await fetch(`${url}/api/generations/${handle}?wait=50`, { headers: { Authorization: `Bearer ${key}` } });
          const state = (await answer.json()) as { done: boolean; status: string };
          if (state.done) {
            statuses[state.status] = (statuses[state.status] ?? 0) + 1;
            return;
          }
        }
      }),
    );
    const allTerminalSeconds = (performance.now() - started) / 1000;
    reading = false;
    await Promise.all(readers);
    const readsDuring = pageTimes.length;
    log(`${scenario.name}: all terminal after ${allTerminalSeconds.toFixed(1)} s; waiting for the deliveries`);

    const deadline = Date.now() + 120_000;
    while (received.size < scenario.publishes && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
    const health = (await (await fetch(`${urls[0]}/api/health`)).json()) as { builds: { started: number } };
    return {
      scenario: scenario.name,
      instances: scenario.instances,
      publishes: scenario.publishes,
      accepted: latencies(acceptTimes),
      allTerminalSeconds,
      statuses,
      builds: health.builds.started,
      deliveries: { received: [...received.values()].reduce((sum, n) => sum + n, 0), tasks: received.size },
      pageGets: latencies(pageTimes),
      requestsPerSecond: (scenario.publishes + readsDuring) / allTerminalSeconds,
    };
  } finally {
    await Promise.all(children.map((started) => started.stop()));
    receiver.close();
  }
}

/** The markdown table of the measures. */
export function formatServiceTable(measures: readonly ServiceMeasure[]): string {
  const rows = measures.map((m) =>
    [
      m.scenario,
      m.instances,
      `${m.accepted.p50.toFixed(0)} / ${m.accepted.p99.toFixed(0)}`,
      m.allTerminalSeconds.toFixed(1),
      Object.entries(m.statuses)
        .map(([status, n]) => `${n} ${status}`)
        .join(', '),
      m.builds,
      `${m.deliveries.received} for ${m.deliveries.tasks}`,
      `${m.pageGets.p50.toFixed(0)} / ${m.pageGets.p99.toFixed(0)} (${m.pageGets.count})`,
      m.requestsPerSecond.toFixed(1),
    ].join(' | '),
  );
  return [
    '| scenario | instances | 202 p50 / p99 ms | all terminal s | statuses | builds | deliveries (events for tasks) | page GET p50 / p99 ms (count) | requests/s while running |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

function latencies(values: number[]): Latencies {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  return { count: sorted.length, p50: at(50), p99: at(99) };
}

function sampleRecord(recordsDir: string): Record<string, unknown> & { slug: string } {
  const file = readdirSync(recordsDir).find((name) => name.endsWith('.svc.json'));
  if (file === undefined) throw new Error(`${recordsDir} has no .svc.json record`);
  return JSON.parse(readFileSync(path.join(recordsDir, file), 'utf8'));
}

/** The arguments of a bench's `serve`: its folders, the database when not SQLite, a receiver on loopback trusted. */
export function serveArguments(place: {
  recordsDir: string;
  outDir: string;
  dataDir: string;
  certificateFile: string;
  database?: { url: string; instance: string };
}): string[] {
  const { recordsDir, outDir, dataDir, certificateFile, database } = place;
  return [
    ...[serveCli, '--port', '0', '--records', recordsDir, '--out', outDir, '--data', dataDir, '--site', BENCH_SITE],
    ...(database === undefined ? [] : ['--database', database.url, '--instance', database.instance]),
    ...['--allow-loopback-callbacks', '--trust-ca', certificateFile],
  ];
}

/** A `serve` process of the bench. */
export interface BenchServe {
  child: ChildProcess;
  url: string;
  /** Ends it (SIGTERM), which is then not reported as a death. */
  stop(): Promise<void>;
}

/** Starts `serve` with `args`, its stdout and stderr going to `logFile`, and waits for the address it prints. */
export function startBenchServe(args: string[], logFile: string): Promise<BenchServe> {
  const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  const logStream = createWriteStream(logFile);
  let tail = '';
  const keep = (chunk: Buffer) => {
    logStream.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let stopping = false;
  return new Promise((resolve, reject) => {
    let started: BenchServe | undefined;
    const onData = () => {
      const url = /^listening on (http:\/\/\S+)/m.exec(tail)?.[1];
      if (url === undefined) return;
      child.stdout!.off('data', onData);
      started = {
        child,
        url,
        stop: async () => {
          stopping = true;
          if (child.exitCode !== null) return;
          child.kill('SIGTERM');
          await new Promise((resolve) => child.once('exit', resolve));
        },
      };
      resolve(started);
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) => {
      logStream.end();
      const message = `serve exited with ${code ?? signal} (its log: ${logFile}):\n${tail.slice(-4000)}`;
      reject(new Error(message));
      // After it listened, a death is reported at once (the bench's requests to it fail next); the bench's own stop is not one.
      if (started !== undefined && !stopping) process.stderr.write(`${message}\n`);
    });
  });
}
