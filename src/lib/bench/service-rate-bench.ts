// How many page reads, then how many publishes, one or two `serve` processes on one PostgreSQL
// database answer in a fixed time under the same fixed number of clients (closed loop: each client
// sends its next request when the last is answered), spread round-robin over the instances.
import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openServiceStores } from '../service/index.ts';
import { runSiteBuildProcess } from '../publish/index.ts';
import { makeCertificate } from './loopback-certificate.ts';
import { BENCH_SITE, type BenchServe, serveArguments, startBenchServe } from './service-bench.ts';

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** One run's rates. */
export interface RateMeasure {
  instances: number;
  /** Page GETs answered per second. */
  readsPerSecond: number;
  /** Publishes answered 202 per second (their builds run meanwhile, on the builder). */
  publishesPerSecond: number;
  /** The machine's one-minute load average at the run's end. */
  load: number;
}

/** A site built once, shared by every run (publishes add garments to it). */
export interface RateSite {
  recordsDir: string;
  outDir: string;
  certificateFile: string;
  page: string;
}

/** Copies the sample records into `workDir` and builds them once. */
export async function buildRateSite(workDir: string): Promise<RateSite> {
  const recordsDir = path.join(workDir, 'records');
  const outDir = path.join(workDir, 'out');
  mkdirSync(workDir, { recursive: true });
  cpSync(path.join(projectRoot, 'records'), recordsDir, { recursive: true });
  const built = await runSiteBuildProcess({ recordsDir, outDir, site: BENCH_SITE });
  if (!built.ok) throw new Error(`the first build failed:\n${built.output}`);
  const slug = readdirSync(recordsDir)
    .find((name) => name.endsWith('.svc.json'))!
    .replace(/\.svc\.json$/, '');
  return { recordsDir, outDir, certificateFile: makeCertificate(workDir).certFile, page: `/garments/${slug}/svc/` };
}

/** Runs `clients` closed-loop clients of `send` for `seconds`, spread over `urls`; answers counted per second. */
async function closedLoop(urls: string[], clients: number, seconds: number, send: (url: string, n: number) => Promise<void>) {
  const until = performance.now() + seconds * 1000;
  let answered = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let n = 0; performance.now() < until; n++) {
        await send(urls[client % urls.length]!, n * clients + client);
        answered += 1;
      }
    }),
  );
  return answered / seconds;
}

/** One run on a new database `databaseUrl`: reads for `seconds`, then publishes for `seconds`. */
export async function runRate(
  site: RateSite,
  {
    databaseUrl,
    instances,
    clients,
    seconds,
    run,
  }: { databaseUrl: string; instances: number; clients: number; seconds: number; run: number },
  workDir: string,
): Promise<RateMeasure> {
  const stores = await openServiceStores({ kind: 'postgresql', url: databaseUrl }, { instance: 'bench-admin' });
  const organization = await stores.store.createOrganization('Bench');
  const { key } = await stores.store.createApiKey(organization.id);
  await stores.close();
  const template = JSON.parse(readFileSync(path.join(site.recordsDir, `${site.page.split('/')[2]}.svc.json`), 'utf8'));
  const started: BenchServe[] = [];
  try {
    for (let i = 0; i < instances; i++) {
      const dataDir = path.join(workDir, `run-${run}-data-${i}`);
      const args = serveArguments({ ...site, dataDir, database: { url: databaseUrl, instance: `rate-${i}` } });
      started.push(await startBenchServe(args, path.join(workDir, `run-${run}-serve-${i}.log`)));
    }
    const urls = started.map((serve) => serve.url);
    const readsPerSecond = await closedLoop(urls, clients, seconds, async (url) => {
      const answer = await fetch(`${url}${site.page}`);
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`GET ${site.page} answered ${answer.status}`);
    });
    const publishesPerSecond = await closedLoop(urls, clients, seconds, async (url, n) => {
      const answer = await fetch(`${url}/api/publish`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ record: { ...template, slug: `rate-${run}-${n}` } }),
      });
      const text = await answer.text();
      if (answer.status !== 202) throw new Error(`publish answered ${answer.status}: ${text}`);
    });
    return { instances, readsPerSecond, publishesPerSecond, load: loadavg()[0]! };
  } finally {
    await Promise.all(started.map((serve) => serve.stop()));
  }
}

/** The runs as Markdown, then the medians and their ratio. */
export function formatRates(measures: readonly RateMeasure[]): string {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  };
  const of = (instances: number) => measures.filter((m) => m.instances === instances);
  const medians = [1, 2].map((instances) => ({
    reads: median(of(instances).map((m) => m.readsPerSecond)),
    publishes: median(of(instances).map((m) => m.publishesPerSecond)),
  }));
  return [
    '| run | instances | page reads/s | publishes (202)/s | load (1 min) |',
    '|---:|---:|---:|---:|---:|',
    ...measures.map(
      (m, i) =>
        `| ${i + 1} | ${m.instances} | ${m.readsPerSecond.toFixed(1)} | ${m.publishesPerSecond.toFixed(1)} | ${m.load.toFixed(1)} |`,
    ),
    '',
    `medians: one instance ${medians[0]!.reads.toFixed(1)} reads/s, ${medians[0]!.publishes.toFixed(1)} publishes/s; two ${medians[1]!.reads.toFixed(1)} and ${medians[1]!.publishes.toFixed(1)}; two against one: ${(medians[1]!.reads / medians[0]!.reads).toFixed(2)}× reads, ${(medians[1]!.publishes / medians[0]!.publishes).toFixed(2)}× publishes`,
  ].join('\n');
}
