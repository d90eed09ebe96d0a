// Builds the site once into a temporary folder from records/ plus the hostile fixture, and a large
// site of synthetic garments (more than the home page lists), serves each on port 0, and hands the
// addresses to the tests (GARMENT_PRESS_E2E_URL and GARMENT_PRESS_E2E_LARGE_URL, and test-results/e2e-site.json).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { syntheticRecords } from '../../src/lib/bench/synthetic-records.ts';
import type { GarmentRecord } from '../../src/lib/record/types.ts';
import { serveStaticFiles } from '../../src/lib/serve/static-files.ts';
import { LARGE_SITE_GARMENTS } from './site.ts';

const root = path.resolve(import.meta.dirname, '../..');
/** Fixture records added to the sample records for the browser tests. */
export const FIXTURE_DIRS = ['tests/fixtures/hostile'];

export default async function globalSetup(): Promise<() => Promise<void>> {
  const work = mkdtempSync(path.join(tmpdir(), 'garment-press-e2e-'));
  const records = path.join(work, 'records');
  mkdirSync(records);
  cpSync(path.join(root, 'records'), records, { recursive: true });
  for (const dir of FIXTURE_DIRS.map((d) => path.join(root, d)).filter(existsSync)) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) cpSync(path.join(dir, file), path.join(records, file));
  }
  // Commerce records only: a garment each, so the large site stays quick to build.
  const largeRecords = path.join(work, 'large-records');
  mkdirSync(largeRecords);
  const samples = readdirSync(path.join(root, 'records'))
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(path.join(root, 'records', file), 'utf8')) as GarmentRecord);
  for (const { fileName, record } of syntheticRecords(samples, LARGE_SITE_GARMENTS * 2)) {
    if (record.projection === 'svc') writeFileSync(path.join(largeRecords, fileName), JSON.stringify(record));
  }

  // Three pages a shard: the browser searches several shards, as on a large site.
  const site = await builtSite(records, path.join(work, 'dist'), ['--search-shard-pages', '3']);
  const large = await builtSite(largeRecords, path.join(work, 'large-dist'));
  process.env.GARMENT_PRESS_E2E_URL = site.url;
  process.env.GARMENT_PRESS_E2E_LARGE_URL = large.url;
  process.env.GARMENT_PRESS_E2E_RECORDS = records;
  // The built folders, for tests that read the site as files (the MCP server over stdio).
  process.env.GARMENT_PRESS_E2E_DIST = path.join(work, 'dist');
  process.env.GARMENT_PRESS_E2E_LARGE_DIST = path.join(work, 'large-dist');
  mkdirSync(path.join(root, 'test-results'), { recursive: true });
  writeFileSync(path.join(root, 'test-results/e2e-site.json'), JSON.stringify({ url: site.url, records, largeUrl: large.url }, null, 2));

  return async () => {
    await Promise.all([site.close(), large.close()]);
    rmSync(work, { recursive: true, force: true });
  };
}

/** Builds a site from a records folder and serves it. */
async function builtSite(records: string, dist: string, options: string[] = []) {
  const node = path.join(root, 'node_modules/.bin/node');
  const build = ['src/cli/build.ts', '--records', records, '--out', dist, ...options];
  execFileSync(existsSync(node) ? node : process.execPath, build, { cwd: root, stdio: 'inherit' });
  return serveStaticFiles(dist, { port: 0 });
}
