// `npm run dev` as a person editing records uses it: a page open in Chromium follows the records on
// disk, a record that stops validating shows its problems over the last good page and in the
// terminal, and fixing it brings the page back. The dev server is this test's own, on a copy of the
// sample records; the policy a publisher may send is applied, so the live reload must live with it.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import type { GarmentRecord } from '../../src/lib/record/types.ts';

const root = path.resolve(import.meta.dirname, '../..');
const POLICY =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src * data:; object-src 'none'";
const SLUG = 'ridgeline-rk6210-heavyweight-tee';
/** Builds on this shared two-core machine take tens of seconds under load; the test waits on the page, never on a clock. */
const REBUILD_MS = 150_000;

/** `npm run dev` started as a person would, with what it prints so far and a way to wait for a line. */
function startDev(records: string, out: string) {
  const child = spawn('npm', ['run', '-s', 'dev', '--', '--records', records, '--out', out, '--port', '0'], {
    cwd: root,
    // Its own process group, so Ctrl+C can be sent to it as a terminal would.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let printed = '';
  const waiting = new Set<() => void>();
  const take = (chunk: Buffer) => {
    printed += chunk.toString('utf8');
    for (const check of waiting) check();
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    printed: () => printed,
    /** The first match of `pattern` in the output from `after` on, once it is printed. */
    says(pattern: RegExp, after = 0): Promise<RegExpExecArray> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = pattern.exec(printed.slice(after));
          if (!found) return;
          waiting.delete(check);
          resolve(found);
        };
        waiting.add(check);
        check();
        void exited.then(() => reject(new Error(`npm run dev ended before printing ${pattern}:\n${printed}`)));
      });
    },
  };
}

function stopProcessGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // It has ended already.
  }
}

test('npm run dev follows records on disk, shows a broken record over the last good page, and recovers', async ({ page, context }) => {
  test.setTimeout(600_000);
  const work = mkdtempSync(path.join(tmpdir(), 'garment-press-dev-'));
  const records = path.join(work, 'records');
  mkdirSync(records);
  for (const name of [`${SLUG}.svc.json`, `${SLUG}.tech.json`, 'fieldline-fl300-twill-work-jacket.svc.json']) {
    cpSync(path.join(root, 'records', name), path.join(records, name));
  }
  const recordFile = path.join(records, `${SLUG}.svc.json`);
  const original = JSON.parse(readFileSync(recordFile, 'utf8')) as GarmentRecord;
  const writeRecord = (change: (record: GarmentRecord) => void) => {
    const record = structuredClone(original);
    change(record);
    writeFileSync(recordFile, JSON.stringify(record, null, 2));
  };
  const dev = startDev(records, path.join(work, 'dist'));
  try {
    const [, url] = await dev.says(/serving .* at (http:\/\/127\.0\.0\.1:\d+)\//);
    const origin = new URL(url!).origin;
    await context.route(
      (address) => address.origin !== origin,
      (route) => route.abort('blockedbyclient'),
    );
    await context.route(
      (address) => address.origin === origin && !address.pathname.startsWith('/__garment-press/events'),
      async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': POLICY } });
      },
    );
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });

    const address = `${url}/garments/${SLUG}/svc/`;
    const heading = page.getByRole('heading', { level: 1 });
    await page.goto(address);
    await expect(heading).toContainText(original.page.title!.text);

    // An edit on disk shows on the open page, which reloads by itself.
    writeRecord((record) => {
      record.page.title!.text = 'Ridgeline RK-6210 Heavyweight Tee, edited on disk';
    });
    await expect(heading).toContainText('Ridgeline RK-6210 Heavyweight Tee, edited on disk', { timeout: REBUILD_MS });

    // A record that stops validating: its problems on the open page and in the terminal, the last good page still served.
    const before = dev.printed().length;
    writeRecord((record) => {
      (record.page.title as unknown as { kind: string }).kind = 'guessed';
    });
    const problems = page.getByRole('alert', { name: 'Build problems' });
    await expect(problems).toContainText(`${SLUG}.svc.json: /page/title/kind: expected one of "fact"`, { timeout: REBUILD_MS });
    await expect(problems).toContainText('this is the last good site');
    await dev.says(new RegExp(`${SLUG}\\.svc\\.json: /page/title/kind: expected one of "fact".*got "guessed"`), before);
    await dev.says(/still serving the last good site/, before);
    await expect(heading).toContainText('Ridgeline RK-6210 Heavyweight Tee, edited on disk');
    const served = await page.request.get(address);
    expect(served.status()).toBe(200);
    expect(await served.text()).toContain('Ridgeline RK-6210 Heavyweight Tee, edited on disk');

    // Fixed, the page comes back with the record as it now is, and the problems go.
    writeRecord((record) => {
      record.page.title!.text = 'Ridgeline RK-6210 Heavyweight Tee, fixed';
    });
    await expect(heading).toContainText('Ridgeline RK-6210 Heavyweight Tee, fixed', { timeout: REBUILD_MS });
    await expect(problems).toHaveCount(0);
    expect(violations).toEqual([]);

    // The site it built is the production site: the live-reload script is only ever added as pages are sent.
    expect(readFileSync(path.join(work, 'dist/garments', SLUG, 'svc/index.html'), 'utf8')).not.toContain('__garment-press');

    // Ctrl+C stops it cleanly.
    stopProcessGroup(dev.child, 'SIGINT');
    await dev.says(/^stopped$/m);
    await dev.exited;
  } finally {
    stopProcessGroup(dev.child, 'SIGKILL');
    rmSync(work, { recursive: true, force: true });
  }
});
