import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import astroSettings from '../../astro.config.mjs';
import { serveDevSite } from '../lib/dev/dev-server.ts';
import { rebuildScheduler } from '../lib/dev/rebuild-scheduler.ts';
import { siteProblemsOf } from '../lib/dev/reload-message.ts';
import { watchFolders } from '../lib/dev/watch-folders.ts';
import { rebuildLine, type WatchedChange } from '../lib/dev/watched-change.ts';
import { runSiteBuildProcess } from '../lib/publish/site-build-process.ts';
import { formatProblem } from '../lib/record/index.ts';
import { siteAddressProblem } from '../lib/site/urls.ts';
import { portOption, readCommandLine, usageError } from './command-line.ts';

const USAGE = `usage: npm run dev [-- [--records DIR] [--out DIR] [--site URL] [--port 4321] [--host 127.0.0.1]]

Builds the site, serves it on loopback and keeps it current while you edit: a change
to records/, src/, public/ or astro.config.mjs rebuilds it (a record change renders
only its garment; a change of code or of public/ renders every page), and open pages
reload when their files change. A build that fails leaves the last good site served
and shows its problems in the terminal and on the open pages. Ctrl+C stops.

  --records DIR   records folder (default: records)
  --out DIR       output folder (default: dist), as for npm run build
  --site URL      absolute address in the records' links
                  (default: $SITE_URL, else astro.config.mjs's site)
  --port N        port to serve on (default 4321; 0 lets the system choose)
  --host HOST     address to serve on (default 127.0.0.1)`;

/** How long the files must be still before a rebuild starts: an editor's save is several events. */
const QUIET_MS = 150;

const options = readCommandLine('dev', USAGE, {
  options: {
    records: { type: 'string', default: 'records' },
    out: { type: 'string', default: 'dist' },
    site: { type: 'string', default: process.env.SITE_URL ?? astroSettings.site },
    port: { type: 'string', default: '4321' },
    host: { type: 'string', default: '127.0.0.1' },
    help: { type: 'boolean', short: 'h' },
  },
}).values;
const port = portOption('dev', USAGE, options.port);
const siteProblem = siteAddressProblem(options.site);
if (siteProblem) usageError('dev', USAGE, `--site ${siteProblem}`);
if (!statSync(options.records, { throwIfNoEntry: false })?.isDirectory())
  usageError('dev', USAGE, `--records ${options.records}: no such folder`);

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const cwd = process.cwd();
const say = (line: string) => process.stdout.write(`${line}\n`);
const stopBuild = new AbortController();
// The port first, so a port in use is said before a build, and the last good site is served during the first one.
const server = await serveDevSite(options.out, { port, host: options.host }).catch((error: unknown) => {
  process.stderr.write(`dev: could not serve on ${options.host}:${port}: ${(error as Error).message}\n`);
  process.exit(1);
});

/** One build in a process of its own, with the code as it now is; never rejects. */
async function rebuild(changes: WatchedChange[]): Promise<void> {
  say(changes.length === 0 ? 'building the site…' : rebuildLine(changes));
  const built = await runSiteBuildProcess({ recordsDir: options.records, outDir: options.out, site: options.site }, stopBuild.signal);
  if (stopBuild.signal.aborted) return;
  if (built.ok) {
    say(`${built.output}\nsite updated in ${built.seconds.toFixed(1)} s`);
    await server.announce(undefined);
    return;
  }
  const found = siteProblemsOf(built, cwd);
  process.stderr.write(`${built.output}\n`);
  for (const problem of found.problems ?? []) process.stderr.write(`${formatProblem({ severity: 'error', ...problem })}\n`);
  process.stderr.write(`build failed in ${built.seconds.toFixed(1)} s; still serving the last good site\n`);
  await server.announce(found);
}

const scheduler = rebuildScheduler<WatchedChange>({ quietMs: QUIET_MS, timers: globalThis, rebuild });
const stopWatching = watchFolders(
  [
    { path: path.resolve(options.records), kind: 'record' },
    { path: path.join(projectRoot, 'src'), kind: 'code' },
    { path: path.join(projectRoot, 'public'), kind: 'public' },
    { path: path.join(projectRoot, 'astro.config.mjs'), kind: 'code', file: true },
  ],
  { cwd, onChange: (change) => scheduler.notice(change), onError: (message) => process.stderr.write(`dev: ${message}\n`) },
);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) process.exit(130);
  stopping = true;
  say('\nstopping…');
  stopWatching();
  stopBuild.abort();
  await scheduler.close();
  await server.close();
  say('stopped');
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());

await scheduler.rebuildNow();
say(`serving ${options.out}/ at ${server.url}/ with live reload; watching ${options.records}/, src/, public/ (Ctrl+C to stop)`);
