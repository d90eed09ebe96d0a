// npm run bench:service: the publish service under a burst of publishes, on SQLite with one
// instance and on PostgreSQL (a throwaway cluster) with one and with two.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatServiceTable, runServiceScenario, type ServiceMeasure, type ServiceScenario } from '../lib/bench/service-bench.ts';
import { formatOnePublish, runOnePublishBench } from '../lib/bench/service-publish-bench.ts';
import { buildRateSite, formatRates, type RateMeasure, runRate } from '../lib/bench/service-rate-bench.ts';
import { createThrowawayDatabase, startThrowawayCluster } from '../lib/database/throwaway-cluster.ts';
import { readCommandLine, usageError } from './command-line.ts';

const USAGE = `usage: npm run bench:service [-- --publishes N] [--dir DIR] [--json FILE]

Starts the publish service (\`serve\` processes) on SQLite with one instance, then on a
throwaway PostgreSQL cluster (Debian's postgresql package; as root it runs as the postgres
user) with one and with two instances sharing the records and output folders. Sends N
publishes of distinct garments with callback URLs at once, spread over the instances, polls
each on another instance, and reads a page throughout. Prints a Markdown table: 202 latency,
time until all terminal, builds, deliveries, page GET latency during the builds.

  --publishes N   publishes per scenario (default 200)
  --scenarios L   which to run, of sqlite,postgresql-1,postgresql-2 (default all three)
  --dir DIR       work folder (default: a new folder in the system's temporary directory)
  --json FILE     also write the measures as JSON

  --one-publish DIR   instead: build the site of the records in DIR (a hard-linked copy in
                      the work folder; \`npm run bench -- --records N --dir D\` makes D/records),
                      start one instance on SQLite, publish one changed record and print where
                      the time from POST to complete goes, from the service's log
  --rate PAIRS        instead: PAIRS pairs of runs of one and of two instances on PostgreSQL,
                      interleaved (which goes first alternates), each with 8 closed-loop
                      clients reading a page for 15 s, then publishing for 15 s; prints
                      each run's rates, the medians and their ratio`;

const options = readCommandLine('bench:service', USAGE, {
  options: {
    publishes: { type: 'string', default: '200' },
    scenarios: { type: 'string', default: 'sqlite,postgresql-1,postgresql-2' },
    dir: { type: 'string' },
    json: { type: 'string' },
    'one-publish': { type: 'string' },
    rate: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
}).values;
const publishes = Number(options.publishes);
if (!Number.isSafeInteger(publishes) || publishes < 1)
  usageError('bench:service', USAGE, `--publishes expects a whole number from 1, got ${options.publishes}`);

const work = options.dir ?? mkdtempSync(path.join(tmpdir(), 'bench-service-'));
const log = (line: string) => process.stderr.write(`${line}\n`);
if (options['one-publish'] !== undefined) {
  const measure = await runOnePublishBench(options['one-publish'], path.join(work, 'one-publish'), log);
  process.stdout.write(`${formatOnePublish(measure)}\n`);
  if (options.json !== undefined) writeFileSync(options.json, `${JSON.stringify(measure, null, 2)}\n`);
  process.exit(0);
}
const cluster = startThrowawayCluster();
if (options.rate !== undefined) {
  const pairs = Number(options.rate);
  if (!Number.isSafeInteger(pairs) || pairs < 1)
    usageError('bench:service', USAGE, `--rate expects a whole number from 1, got ${options.rate}`);
  const rates: RateMeasure[] = [];
  try {
    const site = await buildRateSite(path.join(work, 'rate'));
    for (let pair = 0; pair < pairs; pair++) {
      for (const instances of pair % 2 === 0 ? [1, 2] : [2, 1]) {
        const databaseUrl = await createThrowawayDatabase(cluster.socketFolder);
        rates.push(await runRate(site, { databaseUrl, instances, clients: 8, seconds: 15, run: rates.length }, path.join(work, 'rate')));
        log(formatRates(rates));
      }
    }
  } finally {
    cluster.stop();
  }
  process.stdout.write(`${formatRates(rates)}\n`);
  if (options.json !== undefined) writeFileSync(options.json, `${JSON.stringify(rates, null, 2)}\n`);
  process.exit(0);
}
const measures: ServiceMeasure[] = [];
try {
  const wanted = new Set(options.scenarios.split(','));
  const scenarios: Array<ServiceScenario & { key: string }> = [];
  if (wanted.has('sqlite')) {
    scenarios.push({
      key: 'sqlite',
      name: 'SQLite',
      database: { kind: 'sqlite', dataDir: path.join(work, 'sqlite', 'data-0') },
      instances: 1,
      publishes,
    });
  }
  for (const instances of [1, 2]) {
    if (!wanted.has(`postgresql-${instances}`)) continue;
    const url = await createThrowawayDatabase(cluster.socketFolder);
    scenarios.push({ key: `postgresql-${instances}`, name: 'PostgreSQL', database: { kind: 'postgresql', url }, instances, publishes });
  }
  for (const scenario of scenarios) {
    measures.push(await runServiceScenario(scenario, path.join(work, scenario.key), log));
    log(formatServiceTable(measures.slice(-1)));
  }
} finally {
  cluster.stop();
}
process.stdout.write(`${formatServiceTable(measures)}\n`);
if (options.json !== undefined) writeFileSync(options.json, `${JSON.stringify(measures, null, 2)}\n`);
