import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Problem } from '../record/index.ts';
import type { LeaseFence } from './coordination.ts';

/** How a site build run as a child process went. */
export interface SiteBuildOutcome {
  ok: boolean;
  /** What the build printed (stdout and stderr interleaved), its last part when long: for the operator's log. */
  output: string;
  seconds: number;
  /** The errors the build found in record files (file as a path); empty when it failed for another reason. */
  problems?: Problem[];
  /** Why the build stopped, when it says and not for record problems. */
  error?: string;
  /** Seconds per stage of a build that went through, in order (stages may overlap), as the build process timed them. */
  stages?: Record<string, number>;
}

/** Where a build reads and writes, and the build lease it swaps its site in under (several instances). */
export interface SiteBuildTarget {
  recordsDir: string;
  outDir: string;
  site: string;
  lease?: LeaseFence;
}

/** What the build child sends its parent when done. */
export interface ChildBuildResult {
  ok: boolean;
  problems: Problem[];
  /** Why the build stopped, when not for record problems. */
  error?: string;
  /** Seconds per stage: the process's start, the build's own stages, the swap. */
  stages?: Record<string, number>;
}

/** Output kept per build: enough for every problem line of a bad batch, not a runaway log. */
const OUTPUT_LIMIT = 64 * 1024;

const buildChild = fileURLToPath(new URL('./site-build-child.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Runs the site build (`site-build-child.ts`) in a child process with this process's Node, so
 * Astro's and Vite's memory goes away with the child. Never rejects: a crash or a kill is a failed
 * outcome. Aborting `signal` terminates the child.
 */
export function runSiteBuildProcess(
  target: SiteBuildTarget,
  signal?: AbortSignal,
  onStarted: (pid: number) => void = () => {},
): Promise<SiteBuildOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let output = '';
    let result: ChildBuildResult | undefined;
    const keep = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > 2 * OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT);
    };
    // Absolute paths: the child runs in the project root, and the problems it reports must name the files this process wrote.
    const absolute = { ...target, recordsDir: path.resolve(target.recordsDir), outDir: path.resolve(target.outDir) };
    const child = spawn(process.execPath, [buildChild, JSON.stringify(absolute)], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      // Its own process group: Ctrl+C in a terminal reaches the service, which lets the build finish.
      detached: true,
      env: { ...process.env, NO_COLOR: '1' },
    });
    if (child.pid !== undefined) onStarted(child.pid);
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    child.on('message', (message) => (result = message as ChildBuildResult));
    const onAbort = () => child.kill('SIGTERM');
    signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (ok: boolean, note: string) => {
      signal?.removeEventListener('abort', onAbort);
      const text = `${output.slice(-OUTPUT_LIMIT)}${note}`.trim();
      const error = result?.error === undefined ? {} : { error: result.error };
      const stages = result?.stages === undefined ? {} : { stages: result.stages };
      resolve({ ok, output: text, seconds: (performance.now() - started) / 1000, problems: result?.problems ?? [], ...error, ...stages });
    };
    child.on('error', (error) => finish(false, `\ncould not start the build: ${error.message}`));
    child.on('close', (code, killedBy) => {
      if (code === 0 && result?.ok === true) finish(true, '');
      else if (code === 0) finish(false, '');
      else finish(false, killedBy === null ? `\nbuild exited with code ${code}` : `\nbuild was stopped by ${killedBy}`);
    });
  });
}
