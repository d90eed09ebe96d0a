import { readdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { folderSize, measureBuild, writeSyntheticRecords, type BenchReport } from '../lib/bench/bench.ts';
import { formatBenchTable } from '../lib/bench/report.ts';

const USAGE = `usage: npm run bench [-- --records N] [--dir DIR] [--json FILE]

Generates N synthetic records (default 2000) modelled on records/, builds the full
site from them (validation, pages, twins, search index), then rebuilds with nothing
changed and after changing one record. Prints a table per stage and writes JSON.

  --records N   how many records (default 2000)
  --dir DIR     work folder (default: a folder in the system's temporary directory)
  --json FILE   where to write the JSON report (default: DIR/bench.json)`;

function parseOptions() {
  try {
    return parseArgs({ options: { records: { type: 'string', default: '2000' }, dir: { type: 'string' }, json: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }).values;
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
}

const options = parseOptions();
if (options.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const count = Number(options.records);
if (!Number.isInteger(count) || count < 2) {
  process.stderr.write(`bench: --records must be a whole number of at least 2, got ${options.records}\n`);
  process.exit(2);
}

const dir = path.resolve(options.dir ?? path.join(tmpdir(), `garment-press-bench-${count}`));
const recordsDir = path.join(dir, 'records');
const outDir = path.join(dir, 'dist');
const log = (line: string) => process.stdout.write(`${line}\n`);

log(`generating ${count} records into ${recordsDir}`);
const inputBytes = await writeSyntheticRecords('records', recordsDir, count);
const build = ['--records', recordsDir, '--out', outDir, '--site', 'https://bench.example'];
const runs = [];

log('full build');
runs.push(await measureBuild('full', build, path.join(dir, 'full.json'), log));
log('rebuild, nothing changed');
runs.push(await measureBuild('no change', build, path.join(dir, 'unchanged.json'), log));

const changedFile = path.join(recordsDir, (await readdir(recordsDir)).sort()[0]!);
const changed = JSON.parse(await readFile(changedFile, 'utf8'));
const marker = `Bench edit ${Date.now()}`;
changed.page.sections.overview.push({ text: marker, claim_ids: [], kind: 'fact' });
await writeFile(changedFile, `${JSON.stringify(changed, null, 2)}\n`);
log(`rebuild, one record changed (${path.basename(changedFile)})`);
runs.push(await measureBuild('one changed', build, path.join(dir, 'changed.json'), log));

const page = await readFile(path.join(outDir, 'garments', changed.slug, changed.projection, 'index.html'), 'utf8');
const markdown = await readFile(path.join(outDir, 'garments', changed.slug, `${changed.projection}.md`), 'utf8');
if (!page.includes(marker) || !markdown.includes(marker)) throw new Error(`stale output: the changed record's page or Markdown lacks "${marker}"`);
log('the changed page and its Markdown twin carry the change');

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
