// A site swapped in by renaming (the old folder aside, the new one into place) is, for a moment, no
// folder at all: a reader asking then must get the page, old or new, never a miss.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serveStaticFiles } from '../../../src/lib/serve/static-files.ts';

const SWAPS = 300;
let work: string;
let server: Awaited<ReturnType<typeof serveStaticFiles>>;

/** A site of one page whose text names its version, padded so sizes differ between versions. */
function writeSite(folder: string, version: number): void {
  mkdirSync(path.join(folder, 'garments/tee/svc'), { recursive: true });
  const page = `<!doctype html><title>v${version}</title>${'x'.repeat(version % 7)}</html>`;
  writeFileSync(path.join(folder, 'garments/tee/svc/index.html'), page);
  writeFileSync(path.join(folder, 'index.html'), page);
  writeFileSync(path.join(folder, '404.html'), 'missing');
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'static-swap-'));
  writeSite(path.join(work, 'dist'), 0);
  server = await serveStaticFiles(path.join(work, 'dist'));
});

afterAll(() => server?.close());

it('answers every read with a whole page, old or new, across hundreds of swaps by another process', async () => {
  // The build's swap, its folders named as a build names them: make the new site beside the old, rename the old aside, (a round
  // trip to the lease), rename the new in.
  const swapper = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('node:fs'); const path = require('node:path');
       const [work, swaps] = [process.argv[1], Number(process.argv[2])];
       const target = path.join(work, 'dist');
       for (let version = 1; version <= swaps; version++) {
         const staging = path.join(work, 'dist.staging-' + process.pid);
         fs.mkdirSync(path.join(staging, 'garments/tee/svc'), { recursive: true });
         const page = '<!doctype html><title>v' + version + '</title>' + 'x'.repeat(version % 7) + '</html>';
         fs.writeFileSync(path.join(staging, 'garments/tee/svc/index.html'), page);
         fs.writeFileSync(path.join(staging, 'index.html'), page);
         fs.writeFileSync(path.join(staging, '404.html'), 'missing');
         fs.renameSync(target, path.join(work, 'dist.previous-' + process.pid));
         for (const until = performance.now() + 1; performance.now() < until; );
         fs.renameSync(staging, target);
         fs.rmSync(path.join(work, 'dist.previous-' + process.pid), { recursive: true });
       }`,
      work,
      String(SWAPS),
    ],
    { stdio: 'inherit' },
  );
  const swapped = new Promise<number | null>((resolve) => swapper.once('exit', resolve));
  let done = false;
  void swapped.then(() => (done = true));

  const misses: string[] = [];
  const versions = new Set<string>();
  let reads = 0;
  while (!done) {
    await Promise.all(
      ['/garments/tee/svc/', '/'].map(async (page) => {
        const answer = await fetch(`${server.url}${page}`);
        const text = await answer.text();
        reads += 1;
        if (answer.status !== 200 || !/^<!doctype html><title>v\d+<\/title>x*<\/html>$/.test(text))
          misses.push(`${page}: ${answer.status} ${text}`);
        else versions.add(/v\d+/.exec(text)![0]);
      }),
    );
  }
  expect(await swapped).toBe(0);
  expect(misses).toEqual([]);
  // The reads went on across the swaps: they saw many versions of the site, not one.
  expect(versions.size, `${reads} reads`).toBeGreaterThan(10);
}, 120_000);

it('answers 404 for a site never built (no folder, none set aside), rather than waiting for a swap', async () => {
  const unbuilt = await serveStaticFiles(path.join(work, 'never-built'));
  try {
    const answer = await fetch(`${unbuilt.url}/garments/tee/svc/`);
    expect(answer.status).toBe(404);
  } finally {
    await unbuilt.close();
  }
});
