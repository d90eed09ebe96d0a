import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from './records.ts';

/** The pinned Node 24 that every npm script uses. */
export const node = path.join(projectRoot, 'node_modules/.bin/node');

/** Runs one of the project's CLIs as a user would, and returns what it printed and its exit code. */
export function runCli(script: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const result = spawnSync(node, [path.join(projectRoot, 'src/cli', script), ...args], {
    cwd: options.cwd ?? projectRoot,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
