import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import {
  buildShellSite,
  buildSyntheticIndex,
  delayProxy,
  formatSearchTable,
  measureSearchCpu,
  removeIndex,
  type SearchMeasure,
} from '../lib/bench/search-bench.ts';
import { takeWorkFolder } from '../lib/bench/bench.ts';
import { serveStaticFiles } from '../lib/serve/static-files.ts';
import { t } from '../lib/site/strings.ts';
import { readCommandLine } from './command-line.ts';

const USAGE = `usage: npm run bench:search [-- --records N] [--delay MS] [--dir DIR] [--reuse]
                              [--search-shard-pages N]

Builds the search index of N synthetic records (default 10000) into the site of the
sample records, serves it through a proxy adding MS milliseconds to every response
(default 80), and measures in Chromium, cold and warm, the time to the first hit
shown, and the requests and bytes until then, for a common word, a brand, a word one
garment says, and a filter alone. Prints a table and writes JSON.

  --records N      how many synthetic records (default 10000)
  --delay MS       added to every response (default 80)
  --dir DIR        work folder (default: a folder in the system's temporary directory)
  --reuse          measure the site an earlier run left in DIR, without building
  --search-shard-pages N
                   records per search index shard (default: the build's)`;

const options = readCommandLine('bench:search', USAGE, {
  options: {
    records: { type: 'string', default: '10000' },
    delay: { type: 'string', default: '80' },
    dir: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    'search-shard-pages': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
}).values;
const count = Number(options.records);
const delay = Number(options.delay);
const shardPages = options['search-shard-pages'] === undefined ? undefined : Number(options['search-shard-pages']);
if (
  !Number.isInteger(count) ||
  count < 2 ||
  !Number.isInteger(delay) ||
  delay < 0 ||
  (shardPages !== undefined && !(Number.isInteger(shardPages) && shardPages >= 1))
) {
  process.stderr.write(
    `bench:search: --records must be a whole number of at least 2, --delay and --search-shard-pages whole numbers\n\n${USAGE}\n`,
  );
  process.exit(2);
}
const dir = path.resolve(options.dir ?? path.join(tmpdir(), `garment-press-search-bench-${count}`));
const site = path.join(dir, 'dist');
const log = (line: string) => process.stdout.write(`${line}\n`);

if (!options.reuse) {
  const refusal = await takeWorkFolder(dir);
  if (refusal) {
    process.stderr.write(`bench:search: ${refusal}\n`);
    process.exit(2);
  }
  const shellRecords = path.join(dir, 'records');
  mkdirSync(shellRecords, { recursive: true });
  cpSync('records', shellRecords, { recursive: true });
  log(`building the site of the sample records into ${site}`);
  // The last run's site holds an index no build made, which a build would refuse to replace.
  await removeIndex(site);
  await buildShellSite(shellRecords, site, log);
  await removeIndex(path.join(site, 'pagefind'));
  log(`building the search index of ${count} synthetic records`);
  const summary = await buildSyntheticIndex('records', count, path.join(site, 'pagefind'), shardPages, log);
  log(
    `search index: ${summary.garments} garments in ${summary.shards} shards (${summary.seconds.toFixed(0)} s, Pagefind ${summary.pagefind.peakRssMb ?? '?'} MiB)`,
  );
}

// The synthetic garments: brand of the first, and the word the 1017th says alone (synthetic-records.ts: `<word><garment>`).
const rare = await rareWord(site);
const scenarios: { scenario: string; address: string; words: string; filters: Record<string, string[]> }[] = [
  { scenario: 'common word (cotton)', address: '/search/?q=cotton', words: 'cotton', filters: {} },
  { scenario: 'brand (Kestrel)', address: '/search/?q=Kestrel', words: 'Kestrel', filters: {} },
  { scenario: 'rare word (one garment)', address: `/search/?q=${rare}`, words: rare, filters: {} },
  { scenario: 'filter only (brand Kestrel)', address: '/search/?brand=Kestrel', words: '', filters: { brand: ['Kestrel'] } },
];

const server = await serveStaticFiles(site, { port: 0 });
const proxy = await delayProxy(server.url, delay);
const browser: Browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  // Without its omnibox popup: desktop Chromium renders it (a second of CPU) in every headless window, which a phone's browser does not.
  args: [
    '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
const measures: SearchMeasure[] = [];
try {
  for (const { scenario, address } of scenarios) {
    // A context per search: its cache starts empty (cold), then holds what the first visit fetched (warm).
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (document.querySelector('.search-hit')) {
          (window as unknown as { firstHit: number }).firstHit = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    for (const cache of ['cold', 'warm'] as const) {
      const page = await context.newPage();
      proxy.requests.length = 0;
      await page.goto(`${proxy.url}${address}`);
      const found = await page
        .waitForFunction(() => (window as unknown as { firstHit?: number }).firstHit, undefined, { timeout: 60_000 })
        .then(
          (handle) => handle.jsonValue() as Promise<number>,
          () => null,
        );
      const origin = await page.evaluate(() => performance.timeOrigin);
      const until = found === null ? Infinity : origin + found;
      const before = proxy.requests.filter((request) => request.at <= until);
      const bytes = before.reduce((sum, request) => sum + request.bytes, 0);
      const status = (await page.locator('[data-search-status]').textContent()) ?? '';
      // A reader stays until the search is done: the page keeps what it showed (for the warm visit) only then.
      if (found !== null)
        await page.waitForFunction(
          (searching) => ![searching, ''].includes(document.querySelector('[data-search-status]')?.textContent ?? ''),
          t('search.loading'),
          { timeout: 60_000 },
        );
      measures.push({
        scenario,
        address,
        cache,
        firstHitSeconds: found === null ? null : found / 1000,
        requests: before.length,
        bytes,
        status,
      });
      log(
        `${scenario}, ${cache}: ${found === null ? 'no hit' : `${(found / 1000).toFixed(2)} s`}, ${before.length} requests, ${(bytes / 1024).toFixed(0)} KB (${status})`,
      );
      await page.close();
    }
    await context.close();
  }
} finally {
  await browser.close();
  await proxy.close();
  await server.close();
}
const cpu = await measureSearchCpu(site, scenarios);
const cpuTable = [
  '| search | CPU, first | CPU, again | garments |',
  '|---|---:|---:|---:|',
  ...cpu.map((c) => `| ${c.scenario} | ${c.firstMs.toFixed(0)} ms | ${c.againMs.toFixed(0)} ms | ${c.garments} |`),
].join('\n');
const table = formatSearchTable(measures);
log(
  `\n${count} records, ${delay} ms a response; load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(', ')}\n\n${table}\n\nThe same searches in Node (CPU of the search and its first hit's data):\n\n${cpuTable}`,
);
writeFileSync(
  path.join(dir, 'search-bench.json'),
  `${JSON.stringify({ records: count, delayMs: delay, loadAverage: loadavg(), measures, cpu }, null, 2)}\n`,
);
log(`\nJSON report: ${path.join(dir, 'search-bench.json')}`);

/** A word only one garment of the index says: the distinctive word of a synthetic garment, read from the site's word lists. */
async function rareWord(siteDir: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const list = JSON.parse(await readFile(path.join(siteDir, 'pagefind', 'shards.json'), 'utf8')) as { words: Record<string, string> };
  const words = JSON.parse(await readFile(path.join(siteDir, list.words.h!), 'utf8')) as Record<string, [number, number[]]>;
  const [word] = Object.entries(words).find(([candidate, [garments]]) => /^heath\d+$/.test(candidate) && garments === 1)!;
  return word;
}
