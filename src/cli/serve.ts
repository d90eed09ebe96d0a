// The publish service: the built site plus the publish API, until SIGINT or SIGTERM.
import { readFileSync } from 'node:fs';
import { shareCompiledCode } from '../lib/compiled-code.ts';
import { databaseLocation } from '../lib/database/index.ts';
import { startPublishService, type PublishService } from '../lib/service/index.ts';
import { siteAddressProblem } from '../lib/site/urls.ts';
import { readCommandLine, usageError } from './command-line.ts';

const USAGE = `usage: npm run serve [-- options]

Serves the built site and the publish API (POST /api/publish, GET /api/generations/<handle>,
GET /api/webhooks/deliveries, POST /api/webhooks/deliveries/<handle>/resend,
POST /api/webhooks/test, GET /api/webhooks/secret, POST /api/webhooks/secret/rotate,
GET /api/health; see /docs/webhooks/), and the dashboard at /dashboard/ (Settings, MCP,
Completion webhooks: the signing secret and every delivery attempt, signed in with an API key).
Create an organization and an API key first with
\`npm run admin -- org create --name NAME\`. Garments already in the records folder belong to
no one until \`npm run admin -- garment adopt --org ID\` or \`garment grant\` names an owner.

  --port N              port to listen on; 0 lets the system choose (default 4321)
  --host ADDR           address to listen on (default 127.0.0.1)
  --records DIR         records folder that publishes write into (default records)
  --out DIR             built site, served and rebuilt (default dist)
  --data DIR            databases: keys, tasks, webhook deliveries (default .garment-press)
  --database URL        keys, tasks, builds and deliveries in this PostgreSQL database (postgres://…)
                        instead, shared by every instance given the same URL, --records
                        and --out (default $GARMENT_PRESS_DATABASE_URL; see the README's
                        "Beyond one machine")
  --instance NAME       this instance's name in /api/health and the build lease
                        (default host:pid)
  --site URL            the site's absolute address, used in page_url and links
                        (default $SITE_URL, else http://localhost:<port>)
  --max-body-bytes N    largest request body accepted (default 5242880)

test only (never on by default):
  --allow-loopback-callbacks     accept and deliver to callback URLs on loopback
  --trust-ca FILE                also trust this PEM certificate authority for deliveries
  --webhook-clock-offset-ms N    run the outbox clock N ms ahead, so a retry is due now`;

function fail(message: string): never {
  return usageError('serve', USAGE, message);
}

function wholeNumber(text: string, flag: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
    fail(`${flag} expects a whole non-negative number, got ${JSON.stringify(text)}`);
  return Number(text);
}

const options = readCommandLine('serve', USAGE, {
  options: {
    port: { type: 'string', default: '4321' },
    host: { type: 'string', default: '127.0.0.1' },
    records: { type: 'string', default: 'records' },
    out: { type: 'string', default: 'dist' },
    data: { type: 'string', default: process.env.GARMENT_PRESS_DATA ?? '.garment-press' },
    database: { type: 'string' },
    instance: { type: 'string' },
    site: { type: 'string' },
    'max-body-bytes': { type: 'string' },
    'allow-loopback-callbacks': { type: 'boolean', default: false },
    'trust-ca': { type: 'string' },
    'webhook-clock-offset-ms': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
}).values;
const location = databaseLocation(options.database, options.data);
if ('problem' in location) fail(location.problem);
const site = options.site ?? process.env.SITE_URL;
const siteProblem = site === undefined ? undefined : siteAddressProblem(site);
if (siteProblem) fail(`--site ${siteProblem}`);

let trustedCa: Buffer | undefined;
if (options['trust-ca'] !== undefined) {
  try {
    trustedCa = readFileSync(options['trust-ca']);
  } catch (error) {
    fail(`cannot read --trust-ca ${options['trust-ca']}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

// Each publish builds the site in a process of its own.
shareCompiledCode();
let service: PublishService;
try {
  service = await startPublishService({
    port: wholeNumber(options.port, '--port'),
    host: options.host,
    recordsDir: options.records,
    outDir: options.out,
    dataDir: options.data,
    ...(location.kind === 'postgresql' ? { databaseUrl: location.url } : {}),
    ...(options.instance === undefined ? {} : { instance: options.instance }),
    ...(site === undefined ? {} : { site }),
    ...(options['max-body-bytes'] === undefined ? {} : { maxBodyBytes: wholeNumber(options['max-body-bytes'], '--max-body-bytes') }),
    allowLoopbackCallbacks: options['allow-loopback-callbacks'],
    ...(trustedCa === undefined ? {} : { trustedCa }),
    ...(options['webhook-clock-offset-ms'] === undefined
      ? {}
      : { webhookClockOffsetMs: wholeNumber(options['webhook-clock-offset-ms'], '--webhook-clock-offset-ms') }),
  });
} catch (error) {
  process.stderr.write(`serve: could not start: ${(error as Error).message}\n`);
  process.exit(1);
}

const testOnly = [
  options['allow-loopback-callbacks'] ? 'loopback callbacks allowed' : '',
  trustedCa === undefined ? '' : `extra CA ${options['trust-ca']} trusted`,
  options['webhook-clock-offset-ms'] === undefined ? '' : `webhook clock ${options['webhook-clock-offset-ms']} ms ahead`,
].filter(Boolean);
process.stdout.write(
  `listening on ${service.url} (site ${service.site}, records ${options.records}, out ${options.out}, ${location.kind === 'postgresql' ? `database ${service.databaseName}, instance ${service.instance}` : `data ${options.data}`})\n`,
);
if (testOnly.length > 0) process.stdout.write(`test-only settings: ${testOnly.join('; ')}\n`);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) {
    process.stdout.write(`${signal} again: exiting now\n`);
    process.exit(1);
  }
  stopping = true;
  process.stdout.write(`${signal}: stopping (finishing the build in hand; ${signal} again to exit at once)\n`);
  service.close().then(
    () => {
      process.stdout.write('stopped\n');
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`serve: error while stopping: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
