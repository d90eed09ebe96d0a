// What the browser tests know of the built site: its records, read from the folder the global setup built from.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { GarmentRecord } from '../../src/lib/record/types.ts';

/** The records folder the site under test was built from. */
export function recordsDir(): string {
  const dir = process.env.GARMENT_PRESS_E2E_RECORDS;
  if (!dir) throw new Error('GARMENT_PRESS_E2E_RECORDS is not set: run the browser tests through playwright.config.ts (npm run test:e2e)');
  return dir;
}

/** Every record the site was built from, by file name. */
export function builtRecords(): { file: string; record: GarmentRecord }[] {
  const dir = recordsDir();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, record: JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as GarmentRecord }));
}

/** The sample records shipped in records/ (not the fixtures). */
export function sampleRecords(): { file: string; record: GarmentRecord }[] {
  const samples = new Set(readdirSync(path.resolve(import.meta.dirname, '../../records')));
  return builtRecords().filter(({ file }) => samples.has(file));
}

/**
 * Garments of the large site the global setup builds: more than the home page lists (200), and
 * two of every three are tops, so that category takes two pages of 200.
 */
export const LARGE_SITE_GARMENTS = 330;

/** The address of the large site. */
export function largeSiteUrl(): string {
  const url = process.env.GARMENT_PRESS_E2E_LARGE_URL;
  if (!url)
    throw new Error('GARMENT_PRESS_E2E_LARGE_URL is not set: run the browser tests through playwright.config.ts (npm run test:e2e)');
  return url;
}
