import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../support/records.ts';
import { node } from '../../../support/run.ts';

/** Runs a module script in a process of its own, importing pagefindAnswer; returns what it printed and its exit code. */
function run(body: string) {
  const module = path.join(projectRoot, 'src/lib/search/index/pagefind-process.ts');
  const script = `const { pagefindAnswer } = await import(${JSON.stringify(module)});\n${body}`;
  const result = spawnSync(node, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout.trim() };
}

describe('pagefindAnswer', () => {
  it('rejects a call Pagefind never answers once nothing else is left to run, instead of letting the process end mid-build', () => {
    const { status, stdout } = run(`
      try {
        await pagefindAnswer(new Promise(() => {}), 'writing the index');
      } catch (error) {
        console.log(error.message);
        process.exitCode = 1;
      }`);
    expect(stdout).toBe('Pagefind stopped without answering while writing the index (its own message, if any, is above)');
    expect(status).toBe(1);
  });

  it('passes on what Pagefind answers, and waits as long as other work goes on', () => {
    const { status, stdout } = run(`
      const late = new Promise((resolve) => setTimeout(() => resolve('answered'), 300));
      console.log(await pagefindAnswer(late, 'adding a page'));
      await new Promise((resolve) => setImmediate(resolve));
      console.log(process.listenerCount('beforeExit'));`);
    expect(stdout).toBe('answered\n0');
    expect(status).toBe(0);
  });
});
