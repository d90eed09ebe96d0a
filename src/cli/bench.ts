import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import {
  flushWrites,
  folderSize,
  measureBuild,
  medianRun,
  setAside,
  takeWorkFolder,
  writeSyntheticRecords,
  type BenchReport,
  type BuildRun,
} from '../lib/bench/bench.ts';
import type { GarmentRecord } from '../lib/record/types.ts';
import { formatBenchTable } from '../lib/bench/report.ts';
import { writeSyntheticHistory } from '../lib/bench/synthetic-history.ts';
import { readCommandLine } from './command-line.ts';

const USAGE = `usage: npm run bench [-- --records N] [--revisions N] [--runs N] [--dir DIR] [--json FILE]

Generates N synthetic records (default 2000) modelled on records/, builds the full
site from them (validation, pages, twins, search index), then rebuilds with nothing
changed and after changing one record. Prints a table per stage and writes JSON.

  --records N   how many records (default 2000)
  --revisions N how many revisions each record has (default 1): N - 1 earlier
                ones in the records folder's archive (records/.revisions/)
  --runs N      how many times to run each build (default 1); the table shows the
                median run, and every run's wall time
  --dir DIR     work folder, new or empty or an earlier bench's (default: a
                folder in the system's temporary directory)
  --json FILE   where to write the JSON report (default: DIR/bench.json)`;

const options = readCommandLine('bench', USAGE, {
  options: {
    records: { type: 'string', default: '2000' },
    revisions: { type: 'string', default: '1' },
    runs: { type: 'string', default: '1' },
    dir: { type: 'string' },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
}).values;
const count = Number(options.records);
if (!Number.isInteger(count) || count < 2) {
  process.stderr.write(`bench: --records must be a whole number of at least 2, got ${options.records}\n`);
  process.exit(2);
}

const revisions = Number(options.revisions);
if (!Number.isInteger(revisions) || revisions < 1) {
  process.stderr.write(`bench: --revisions must be a whole number of at least 1, got ${options.revisions}\n`);
  process.exit(2);
}

const repeat = Number(options.runs);
if (!Number.isInteger(repeat) || repeat < 1) {
  process.stderr.write(`bench: --runs must be a whole number of at least 1, got ${options.runs}\n`);
  process.exit(2);
}

const dir = path.resolve(options.dir ?? path.join(tmpdir(), `garment-press-bench-${count}`));
const recordsDir = path.join(dir, 'records');
const outDir = path.join(dir, 'dist');
const asideDir = path.join(dir, 'set-aside');
const log = (line: string) => process.stdout.write(`${line}\n`);

const refusal = await takeWorkFolder(dir);
if (refusal) {
  process.stderr.write(`bench: ${refusal}\n`);
  process.exit(2);
}
log(`generating ${count} records into ${recordsDir}`);
await setAside(recordsDir, asideDir);
const inputBytes = await writeSyntheticRecords('records', recordsDir, count);
if (revisions > 1) {
  log(`giving each record ${revisions - 1} earlier revisions in ${path.join(recordsDir, '.revisions')}`);
  await writeSyntheticHistory(recordsDir, revisions - 1, 'https://bench.example');
}
const build = ['--records', recordsDir, '--out', outDir, '--site', 'https://bench.example'];
const runs: BuildRun[] = [];
const measure = async (name: string, before: () => Promise<void>, after: () => Promise<void> = async () => {}) => {
  const measured = [];
  for (let run = 1; run <= repeat; run++) {
    await before();
    await flushWrites();
    log(`${name}${repeat > 1 ? `, run ${run} of ${repeat}` : ''}`);
    measured.push(await measureBuild(name, build, path.join(dir, `${name.replace(/ /g, '-')}-${run}.json`), log));
    await after();
  }
  runs.push(medianRun(measured));
};

// Each full build starts from no output, as a first build does; earlier output is removed at the end.
await measure('full', () => setAside(outDir, asideDir));
await measure('no change', async () => {});

const changedFile = path.join(recordsDir, (await readdir(recordsDir)).sort()[0]!);
let marker = '';
let changed: GarmentRecord | undefined;
await measure(
  'one changed',
  async () => {
    changed = JSON.parse(await readFile(changedFile, 'utf8')) as GarmentRecord;
    marker = `Bench edit ${Date.now()}`;
    changed.page.sections.overview.push({ text: marker, claim_ids: [], kind: 'fact' });
    await writeFile(changedFile, `${JSON.stringify(changed, null, 2)}\n`);
  },
  async () => {
    const page = await readFile(path.join(outDir, 'garments', changed!.slug, changed!.projection, 'index.html'), 'utf8');
    const markdown = await readFile(path.join(outDir, 'garments', changed!.slug, `${changed!.projection}.md`), 'utf8');
    if (!page.includes(marker) || !markdown.includes(marker))
      throw new Error(`stale output: the changed record's page or Markdown lacks "${marker}"`);
    log(`  the changed page and its Markdown twin carry the change (${path.basename(changedFile)})`);
  },
);

const output = await folderSize(outDir);
const report: BenchReport = {
  records: count,
  inputMb: inputBytes / 1e6,
  outputMb: output.bytes / 1e6,
  outputFiles: output.files,
  machine: { cpus: availableParallelism(), node: process.versions.node },
  runs,
};
log(`\n${formatBenchTable(report)}`);
const jsonFile = options.json ?? path.join(dir, 'bench.json');
await writeFile(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
log(`\nJSON report: ${jsonFile}`);
log(`removing earlier runs' output (${asideDir})`);
await rm(asideDir, { recursive: true, force: true });
