// Screenshots of every sample record's page, its garment page, the home page, the search page
// (results for "fleece", results narrowed by a filter, and a search that finds nothing) and two
// garments compared, at phone (390 × 844) and desktop (1280 × 800) width, light and dark: the first
// screen and the whole page, for a person to look at; and each commerce page printed (an A4 PDF and
// its first page). Builds the sample records into a temporary folder and serves it on loopback; then
// the home page of a site of 2,000 synthetic records (`home-at-scale`; --scale to change the count).
// Usage: npm run screenshots [-- --out DIR] [--scale N]   (default /tmp/garment-press-screenshots, 2000)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { syntheticRecords } from '../src/lib/bench/synthetic-records.ts';
import type { GarmentRecord } from '../src/lib/record/types.ts';
import { serveStaticFiles } from '../src/lib/serve/static-files.ts';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    out: { type: 'string', default: path.join(tmpdir(), 'garment-press-screenshots') },
    scale: { type: 'string', default: '2000' },
  },
});
const out = path.resolve(values.out!);
mkdirSync(out, { recursive: true });

const work = mkdtempSync(path.join(tmpdir(), 'garment-press-screenshots-'));
const dist = path.join(work, 'dist');
execFileSync(process.execPath, ['src/cli/build.ts', '--out', dist], { cwd: root, stdio: 'inherit' });
const server = await serveStaticFiles(dist, { port: 0 });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
try {
  const records = readdirSync(path.join(root, 'records'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(root, 'records', f), 'utf8')) as GarmentRecord);
  // A search page is taken once its search has shown what it found (`ready`).
  const pages: { name: string; path: string; ready?: string }[] = [
    { name: 'home', path: '/' },
    { name: 'search-fleece', path: '/search/?q=fleece', ready: '.search-hit' },
    { name: 'search-filtered', path: '/search/?q=cotton&category=tops', ready: '.search-hit' },
    { name: 'search-nothing', path: '/search/?q=flxxce', ready: '[data-search-help]:not([hidden])' },
    // Two garments side by side, drawn from their JSON twins once the table is there.
    {
      name: 'compare',
      path: `/compare/?${[...new Set(records.map((r) => r.slug))]
        .slice(0, 2)
        .map((slug) => `g=${slug}`)
        .join('&')}`,
      ready: '.compare-table',
    },
    ...[...new Set(records.map((r) => r.slug))].map((slug) => ({ name: `${slug}`, path: `/garments/${slug}/` })),
    ...records.map((r) => ({ name: `${r.slug}.${r.projection}`, path: `/garments/${r.slug}/${r.projection}/` })),
    // A record's history and what its last revision changed (the tee's commerce record has two).
    ...records.flatMap((r) => {
      const kept = path.join(root, 'records', '.revisions', `${r.slug}.${r.projection}`);
      const latest = (existsSync(kept) ? readdirSync(kept).length : 0) + 1;
      return [
        { name: `${r.slug}.${r.projection}.revisions`, path: `/garments/${r.slug}/${r.projection}/revisions/` },
        { name: `${r.slug}.${r.projection}.revision-${latest}`, path: `/garments/${r.slug}/${r.projection}/revisions/${latest}/` },
      ];
    }),
  ];
  await screenshots(server.url, pages);
  // Print: each commerce page as Chromium prints it on A4 (a PDF), and its first printed page as an image.
  const printing = await browser.newContext({ viewport: { width: 794, height: 1123 } });
  await printing.route(
    (url) => url.origin !== new URL(server.url).origin,
    (route) => route.abort('blockedbyclient'),
  );
  const paper = await printing.newPage();
  for (const record of records.filter((r) => r.projection === 'svc')) {
    await paper.goto(new URL(`/garments/${record.slug}/svc/`, server.url).href);
    await paper.emulateMedia({ media: 'print' });
    await paper.pdf({ path: path.join(out, `${record.slug}.svc.print.pdf`), format: 'A4' });
    await paper.screenshot({ path: path.join(out, `${record.slug}.svc.print.top.png`) });
  }
  await printing.close();
  // The home page of a site of thousands of garments: what a shopper sees first at scale.
  const scaleRecords = path.join(work, 'scale-records');
  mkdirSync(scaleRecords);
  for (const { fileName, record } of syntheticRecords(records, Number(values.scale)))
    writeFileSync(path.join(scaleRecords, fileName), JSON.stringify(record));
  const scaleDist = path.join(work, 'scale-dist');
  execFileSync(process.execPath, ['src/cli/build.ts', '--records', scaleRecords, '--out', scaleDist], { cwd: root, stdio: 'inherit' });
  const scaleServer = await serveStaticFiles(scaleDist, { port: 0 });
  try {
    await screenshots(scaleServer.url, [{ name: 'home-at-scale', path: '/' }]);
  } finally {
    await scaleServer.close();
  }
  process.stdout.write(`screenshots in ${out}\n`);
} finally {
  await browser.close();
  await server.close();
  if (existsSync(work)) rmSync(work, { recursive: true, force: true });
}

/** Each page of a site at phone and desktop width, light and dark: its first screen, and in light its whole length. */
async function screenshots(site: string, pages: { name: string; path: string; ready?: string }[]): Promise<void> {
  const widths = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
  for (const scheme of ['light', 'dark'] as const) {
    for (const [width, viewport] of Object.entries(widths)) {
      const context = await browser.newContext({ viewport, colorScheme: scheme });
      // Only the site: a record's images on other hosts are never fetched.
      await context.route(
        (url) => url.origin !== new URL(site).origin,
        (route) => route.abort('blockedbyclient'),
      );
      const page = await context.newPage();
      for (const { name, path: sitePath, ready } of pages) {
        await page.goto(new URL(sitePath, site).href);
        if (ready) await page.locator(ready).first().waitFor();
        const file = path.join(out, `${name}.${width}.${scheme}`);
        await page.screenshot({ path: `${file}.top.png` });
        if (scheme === 'light') await page.screenshot({ path: `${file}.full.png`, fullPage: true });
      }
      await context.close();
    }
  }
}
