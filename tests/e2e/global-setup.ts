// Builds the site once into a temporary folder from records/ plus the hostile fixture, serves it on
// port 0, and hands the address to the tests (GARMENT_PRESS_E2E_URL, and test-results/e2e-site.json).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveStaticFiles } from '../../src/lib/serve/static-files.ts';

const root = path.resolve(import.meta.dirname, '../..');
/** Fixture records added to the sample records for the browser tests. */
export const FIXTURE_DIRS = ['tests/fixtures/hostile'];

export default async function globalSetup(): Promise<() => Promise<void>> {
  const work = mkdtempSync(path.join(tmpdir(), 'garment-press-e2e-'));
  const records = path.join(work, 'records');
  const dist = path.join(work, 'dist');
  mkdirSync(records);
  cpSync(path.join(root, 'records'), records, { recursive: true });
  for (const dir of FIXTURE_DIRS.map((d) => path.join(root, d)).filter(existsSync)) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) cpSync(path.join(dir, file), path.join(records, file));
  }

  const node = path.join(root, 'node_modules/.bin/node');
  // Three pages a shard: the browser searches several shards, as on a large site.
  const build = ['src/cli/build.ts', '--records', records, '--out', dist, '--search-shard-pages', '3'];
  execFileSync(existsSync(node) ? node : process.execPath, build, { cwd: root, stdio: 'inherit' });

  const server = await serveStaticFiles(dist, { port: 0 });
  process.env.GARMENT_PRESS_E2E_URL = server.url;
  process.env.GARMENT_PRESS_E2E_RECORDS = records;
  mkdirSync(path.join(root, 'test-results'), { recursive: true });
  writeFileSync(path.join(root, 'test-results/e2e-site.json'), JSON.stringify({ url: server.url, records, dist }, null, 2));

  return async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  };
}
