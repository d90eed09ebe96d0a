// Command-line face of src/lib/webhooks: sign and verify deliveries, check callback URLs,
// and run the outbox worker. Exit codes: 0 accepted/allowed/done (and --help), 1 rejected/refused, 2 bad usage.
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { parseArgs } from 'node:util';
import { isPostgresUrl, openPostgresDatabase } from '../lib/database/index.ts';
import { GarmentPressError } from '../lib/errors.ts';
import {
  checkCallbackUrl,
  describeAttempt,
  openOutbox,
  resolveWithSystemDns,
  signPayload,
  verifySignature,
} from '../lib/webhooks/index.ts';
import type { HostResolver } from '../lib/webhooks/index.ts';

class UsageError extends GarmentPressError {}

const USAGE = `usage:
  webhook sign --secret S --timestamp T --body-file F
  webhook verify --secret S [--secret S2] --header H --body-file F [--now T] [--tolerance SECONDS]
  webhook check-url URL [--resolve HOST=ADDR[,ADDR...]]
  webhook deliver --db PATH|URL --secrets FILE [--once] [--poll-ms N] [--timeout-ms N]
                  [--allow-loopback] [--ca FILE] [--clock-file FILE]

  sign       prints the X-Svc-Signature value for the body file's exact bytes, signed at T (Unix seconds)
  verify     prints "accepted" (exit 0) or "rejected: <reason>" (exit 1); --now defaults to the clock
  check-url  prints "allowed" (exit 0) or "refused: <reason>" (exit 1); --resolve stands in for DNS
  deliver    runs the outbox worker on the SQLite file PATH, or on a postgres:// URL; --secrets is a JSON file
             {"<organization id>": "whsec_..."} read at each attempt; --allow-loopback, --ca and
             --clock-file (epoch milliseconds, read at every tick) exist for tests`;

const WHOLE_NUMBER = /^(0|[1-9][0-9]*)$/;

type Command = (args: string[]) => Promise<number> | number;

const COMMANDS: Record<string, Command> = {
  sign(args) {
    const { values } = parseArgs({
      args,
      options: { secret: { type: 'string' }, timestamp: { type: 'string' }, 'body-file': { type: 'string' } },
    });
    const secret = requireValue(values.secret, '--secret');
    const timestamp = parseWholeNumber(requireValue(values.timestamp, '--timestamp'), '--timestamp');
    const body = readBodyFile(requireValue(values['body-file'], '--body-file'));
    process.stdout.write(`${signPayload(secret, timestamp, body)}\n`);
    return 0;
  },

  verify(args) {
    const { values } = parseArgs({
      args,
      options: {
        secret: { type: 'string', multiple: true },
        header: { type: 'string' },
        'body-file': { type: 'string' },
        now: { type: 'string' },
        tolerance: { type: 'string' },
      },
    });
    const secrets = values.secret ?? [];
    if (secrets.length === 0 || secrets.includes('')) throw new UsageError('--secret is required and must not be empty');
    const header = requireValue(values.header, '--header', { allowEmpty: true });
    const body = readBodyFile(requireValue(values['body-file'], '--body-file'));
    const nowSeconds = values.now === undefined ? undefined : parseWholeNumber(values.now, '--now');
    const check = verifySignature({
      header,
      body,
      secrets,
      ...(nowSeconds === undefined ? {} : { now: () => nowSeconds * 1000 }),
      ...(values.tolerance === undefined ? {} : { toleranceSeconds: parseWholeNumber(values.tolerance, '--tolerance') }),
    });
    process.stdout.write(check.accepted ? 'accepted\n' : `rejected: ${check.reason}\n`);
    return check.accepted ? 0 : 1;
  },

  async 'check-url'(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { resolve: { type: 'string', multiple: true } },
    });
    const [url] = positionals;
    if (url === undefined || positionals.length > 1) throw new UsageError('check-url takes exactly one URL');
    const check = await checkCallbackUrl(url, { resolveHost: createResolver(values.resolve ?? []) });
    const answer = !check.allowed
      ? `refused: ${check.reason}`
      : check.unresolved === undefined
        ? 'allowed'
        : `allowed, though ${check.unresolved} now: each delivery resolves it again and connects only to public addresses`;
    process.stdout.write(`${answer}\n`);
    return check.allowed ? 0 : 1;
  },

  async deliver(args) {
    const { values } = parseArgs({
      args,
      options: {
        db: { type: 'string' },
        secrets: { type: 'string' },
        once: { type: 'boolean' },
        'poll-ms': { type: 'string' },
        'timeout-ms': { type: 'string' },
        'allow-loopback': { type: 'boolean' },
        ca: { type: 'string' },
        'clock-file': { type: 'string' },
      },
    });
    const dbPath = requireValue(values.db, '--db');
    const secretsPath = requireValue(values.secrets, '--secrets');
    const clockPath = values['clock-file'];
    // Read everything once up front so a wrong path fails now, not at the first attempt.
    readInputFile(secretsPath, '--secrets', readSecrets);
    if (clockPath !== undefined) readInputFile(clockPath, '--clock-file', readClock);
    const trustedCa = values.ca === undefined ? undefined : readInputFile(values.ca, '--ca', (file) => readFileSync(file));
    const postgres = isPostgresUrl(dbPath) ? openPostgresDatabase(dbPath) : undefined;
    try {
      const outbox = await openOutbox(postgres ?? dbPath, {
        secretFor: (organizationId) => readSecrets(secretsPath)[organizationId] ?? '',
        policy: { allowLoopback: values['allow-loopback'] === true },
        ...(trustedCa === undefined ? {} : { trustedCa }),
        ...(values['timeout-ms'] === undefined ? {} : { timeoutMs: parseWholeNumber(values['timeout-ms'], '--timeout-ms') }),
        ...(values['poll-ms'] === undefined ? {} : { pollIntervalMs: parseWholeNumber(values['poll-ms'], '--poll-ms') }),
        ...(clockPath === undefined ? {} : { now: () => readClock(clockPath) }),
        onAttempt: (attempt) => process.stdout.write(`${describeAttempt(attempt)}\n`),
      });
      if (values.once === true) await outbox.runDue();
      else {
        outbox.start();
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
      }
      await outbox.close();
    } finally {
      await postgres?.close();
    }
    return 0;
  },
};

/** Resolves hosts named in --resolve from their listed addresses, and any other host with real DNS. */
function createResolver(entries: string[]): HostResolver {
  const answers = new Map<string, string[]>();
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    const host = domainToASCII(entry.slice(0, eq).replace(/\.+$/, ''));
    const addresses = entry
      .slice(eq + 1)
      .split(',')
      .map((address) => address.replace(/^\[(.*)\]$/, '$1'));
    if (eq === -1 || host === '' || addresses.some((address) => isIP(address) === 0)) {
      throw new UsageError(`--resolve expects HOST=ADDR[,ADDR...] with IP addresses, got ${JSON.stringify(entry)}`);
    }
    answers.set(host, addresses);
  }
  return async (hostname) => answers.get(hostname) ?? resolveWithSystemDns(hostname);
}

function readSecrets(path: string): Record<string, string> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
}

function readClock(path: string): number {
  const text = readFileSync(path, 'utf8').trim();
  if (!WHOLE_NUMBER.test(text)) throw new GarmentPressError(`${path}: expected epoch milliseconds, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** The body file's bytes exactly: no trimming, no newline added, no BOM stripped. */
function readBodyFile(path: string): Buffer {
  return readInputFile(path, '--body-file', (file) => readFileSync(file));
}

function readInputFile<T>(path: string, flag: string, read: (path: string) => T): T {
  try {
    return read(path);
  } catch (error) {
    const cause = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`cannot read ${flag} ${path}: ${cause}`);
  }
}

function requireValue(value: string | undefined, flag: string, options: { allowEmpty?: boolean } = {}): string {
  if (value === undefined || (value === '' && options.allowEmpty !== true)) throw new UsageError(`${flag} is required`);
  return value;
}

function parseWholeNumber(text: string, flag: string): number {
  if (!WHOLE_NUMBER.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(`${flag} expects a whole non-negative number, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  // `--help` on the command or after any subcommand: the usage, and success.
  if (argv.some((arg) => arg === '--help' || arg === '-h') || name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  try {
    if (command === undefined) throw new UsageError(name === undefined ? 'no command given' : `unknown command ${name}`);
    return await command(args);
  } catch (error) {
    // parseArgs reports unknown or malformed options with codes starting ERR_PARSE_ARGS.
    const isParseError = String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS');
    if (!(error instanceof UsageError) && !isParseError) throw error;
    process.stderr.write(`webhook: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
