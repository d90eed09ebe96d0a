import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** How a site build run as a child process went. */
export interface SiteBuildOutcome {
  ok: boolean;
  /** What the build printed (stdout and stderr interleaved), its last part when long. */
  output: string;
  seconds: number;
}

/** Where a build reads and writes. */
export interface SiteBuildTarget {
  recordsDir: string;
  outDir: string;
  site: string;
}

/** Output kept per build: enough for every problem line of a bad batch, not a runaway log. */
const OUTPUT_LIMIT = 64 * 1024;

const buildCli = fileURLToPath(new URL('../../cli/build.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Runs `src/cli/build.ts` in a child process with this process's Node, so Astro's and Vite's
 * memory goes away with the child. Never rejects: a crash or a kill is a failed outcome.
 * Aborting `signal` terminates the child.
 */
export function runSiteBuildProcess({ recordsDir, outDir, site }: SiteBuildTarget, signal?: AbortSignal): Promise<SiteBuildOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let output = '';
    const keep = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > 2 * OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT);
    };
    const child = spawn(process.execPath, [buildCli, '--records', recordsDir, '--out', outDir, '--site', site], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: Ctrl+C in a terminal reaches the service, which lets the build finish.
      detached: true,
      env: { ...process.env, NO_COLOR: '1' },
    });
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const onAbort = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (ok: boolean, note: string) => {
      signal?.removeEventListener('abort', onAbort);
      const text = `${output.slice(-OUTPUT_LIMIT)}${note}`.trim();
      resolve({ ok, output: text, seconds: (performance.now() - started) / 1000 });
    };
    child.on('error', (error) => finish(false, `\ncould not start the build: ${error.message}`));
    child.on('close', (code, killedBy) => {
      if (code === 0) finish(true, '');
      else finish(false, killedBy === null ? `\nbuild exited with code ${code}` : `\nbuild was stopped by ${killedBy}`);
    });
  });
}
