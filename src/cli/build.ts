import { writeFile } from 'node:fs/promises';
import astroSettings from '../../astro.config.mjs';
import { shareCompiledCode } from '../lib/compiled-code.ts';
import { formatProblem, MissingPathError } from '../lib/record/index.ts';
import { readCommandLine } from './command-line.ts';
import { failureMessage } from './failure-message.ts';
import { stopQuietlyWhenOutputCloses } from './output-closed.ts';
import { siteAddressProblem } from '../lib/site/urls.ts';

const USAGE = `usage: npm run build [-- [--records DIR] [--out DIR] [--site URL] [--fresh]
                         [--search-shard-pages N] [--report FILE]]

Validates every record, then builds the site: pages, JSON and Markdown twins,
search index. On any validation error nothing is built and the output folder
is left exactly as it was.

  --records DIR   records folder (default: records)
  --out DIR       output folder (default: dist), replaced by the new site: it
                  must not hold the records, be inside them, or hold files
                  that no build made
  --site URL      absolute address the site is published at
                  (default: $SITE_URL, else astro.config.mjs's site)
  --fresh         render everything, ignoring what the last build left
  --search-shard-pages N
                  records per search index shard (default 10000): fewer make
                  rebuilds quicker, more make searches fetch less
  --report FILE   also write timings and peak memory per stage, and CPU time, as JSON`;

const options = readCommandLine('build', USAGE, {
  options: {
    records: { type: 'string', default: 'records' },
    out: { type: 'string', default: 'dist' },
    site: { type: 'string', default: process.env.SITE_URL ?? astroSettings.site },
    report: { type: 'string' },
    fresh: { type: 'boolean', default: false },
    'search-shard-pages': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
}).values;
const siteProblem = siteAddressProblem(options.site);
if (siteProblem) {
  process.stderr.write(`build: --site ${siteProblem}\n`);
  process.exit(2);
}
const searchShardPages = options['search-shard-pages'] === undefined ? undefined : Number(options['search-shard-pages']);
if (searchShardPages !== undefined && !(Number.isInteger(searchShardPages) && searchShardPages >= 1)) {
  process.stderr.write(`build: --search-shard-pages must be a whole number of at least 1, got ${options['search-shard-pages']}\n`);
  process.exit(2);
}

shareCompiledCode();
// Astro loads slowly, so it is imported only once the arguments are known to be good.
const { buildSite } = await import('../lib/pipeline/site-build.ts');
const out = options.out.endsWith('/') ? options.out : `${options.out}/`;
stopQuietlyWhenOutputCloses();
const started = performance.now();
const result = await buildSite({
  recordsDir: options.records,
  outDir: options.out,
  site: options.site,
  fresh: options.fresh,
  ...(searchShardPages ? { searchShardPages } : {}),
  onProgress: (line) => process.stdout.write(`${line}\n`),
}).catch((error: unknown) => {
  if (error instanceof MissingPathError) {
    process.stderr.write(`build: --records ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`${failureMessage(error)}\nbuild failed; ${out} was left unchanged\n`);
  process.exit(1);
});
for (const problem of result.problems) process.stdout.write(`${formatProblem(problem)}\n`);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (options.report) {
  const { ok, records, rendered, timings, peakRssMb, cpuSeconds } = result;
  await writeFile(
    options.report,
    `${JSON.stringify({ ok, records, rendered, seconds: Number(seconds), timings, peakRssMb, cpuSeconds }, null, 2)}\n`,
  );
}
if (result.ok) {
  process.stdout.write(`built ${result.records} records (${result.rendered} rendered) into ${out} in ${seconds} s\n`);
} else {
  const errors = result.problems.filter((p) => p.severity === 'error').length;
  process.stderr.write(`build stopped: ${errors} error(s) in the records; ${out} was left unchanged\n`);
  process.exitCode = 1;
}
