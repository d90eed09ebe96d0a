import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/run.ts';

describe('npm run bench', () => {
  it('builds, rebuilds unchanged and rebuilds after one change, checking the change, and reports each per stage', () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'bench-')), 'work');
    const result = runCli('bench.ts', ['--records', '4', '--dir', dir]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/the changed page and its Markdown twin carry the change/);
    for (const build of ['full', 'no change', 'one changed']) expect(result.stdout).toMatch(new RegExp(`^\\| ${build} +\\| total`, 'm'));
    const report = JSON.parse(readFileSync(path.join(dir, 'bench.json'), 'utf8'));
    expect(report).toMatchObject({ records: 4, machine: { cpus: expect.any(Number) } });
    expect(report.runs.map((run: { name: string }) => run.name)).toEqual(['full', 'no change', 'one changed']);
    // CPU time, the build's with its threads and Pagefind's apart (a build with nothing to do starts no Pagefind).
    const [full, unchanged] = report.runs as { cpuSeconds: Record<string, number> }[];
    expect(full!.cpuSeconds.build).toBeGreaterThan(0);
    expect(unchanged!.cpuSeconds.build).toBeGreaterThan(0);
    // Indexing 4 pages may take less than the 10 ms Linux counts in: the figure is there, maybe 0.
    if (process.platform === 'linux') expect(full!.cpuSeconds['Pagefind process']).toEqual(expect.any(Number));
    expect(unchanged!.cpuSeconds['Pagefind process']).toBeUndefined();
    // The same folder is the bench's own: a second bench may use it again.
    expect(runCli('bench.ts', ['--records', '2', '--dir', dir]).status).toBe(0);
    rmSync(path.dirname(dir), { recursive: true, force: true });
  }, 240_000);

  it('refuses a work folder holding files it did not make, since each run replaces records/ and dist/', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-'));
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    const result = runCli('bench.ts', ['--records', '2', '--dir', dir]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`bench: ${dir} holds files no bench made`);
    expect(readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    rmSync(dir, { recursive: true, force: true });
  });
});
