import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GarmentRecord } from '../record/types.ts';
import { isReplaceable } from '../replaceable-folder.ts';
import { syntheticRecords } from './synthetic-records.ts';

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
const node = path.join(projectRoot, 'node_modules/.bin/node');

/** The file that marks a folder as the bench's to replace the contents of. */
const WORK_FOLDER_MARK = '.garment-press-bench';

/**
 * Takes `dir` as the bench's work folder, whose records/ and dist/ each run replaces: a new or
 * empty folder, or one an earlier bench took. Returns why not otherwise, so nothing else is lost.
 */
export async function takeWorkFolder(dir: string): Promise<string | undefined> {
  if (!(await isReplaceable(dir, WORK_FOLDER_MARK))) {
    return `${dir} holds files no bench made, and the bench replaces a work folder's records/ and dist/: choose a new or empty folder`;
  }
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, WORK_FOLDER_MARK),
    'The work folder of `npm run bench`: each run replaces records/, dist/ and set-aside/ here.\n',
  );
  return undefined;
}

/** One build as the bench measured it. */
export interface BuildRun {
  name: string;
  /** Wall time of the whole build command, seconds. */
  seconds: number;
  /** Seconds per stage, as the build reported them. */
  timings: Record<string, number>;
  /** Peak resident memory (MiB) of the build process at the end of each stage. */
  peakRssMb: Record<string, number>;
  /** CPU seconds of the build (`build`), of that the kernel's (`kernel`), and of its Pagefind process, as the build reported them. */
  cpuSeconds: Record<string, number>;
  /** With several runs of the same build: every run's wall time, this one being the median. */
  samples?: number[];
}

/** Everything one bench run measured. */
export interface BenchReport {
  records: number;
  inputMb: number;
  outputMb: number;
  outputFiles: number;
  machine: { cpus: number; node: string };
  runs: BuildRun[];
}

/** Writes `count` synthetic records modelled on the sample records into `dir`; returns their total size in bytes. */
export async function writeSyntheticRecords(templatesDir: string, dir: string, count: number): Promise<number> {
  const names = (await readdir(templatesDir)).filter((name) => name.endsWith('.json')).sort();
  const templates = await Promise.all(
    names.map(async (name) => JSON.parse(await readFile(path.join(templatesDir, name), 'utf8')) as GarmentRecord),
  );
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  let bytes = 0;
  let batch: Promise<void>[] = [];
  for (const { fileName, record } of syntheticRecords(templates, count)) {
    const text = `${JSON.stringify(record, null, 2)}\n`;
    bytes += Buffer.byteLength(text);
    batch.push(writeFile(path.join(dir, fileName), text));
    if (batch.length === 64) {
      await Promise.all(batch);
      batch = [];
    }
  }
  await Promise.all(batch);
  return bytes;
}

/** Runs `npm run build` as its own process (so its memory is its own) and reads its report. */
export async function measureBuild(name: string, args: string[], reportFile: string, onOutput: (line: string) => void): Promise<BuildRun> {
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(node, [path.join(projectRoot, 'src/cli/build.ts'), ...args, '--report', reportFile], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) =>
      chunk
        .split('\n')
        .filter(Boolean)
        .forEach((line) => onOutput(`  ${line}`)),
    );
    child.on('error', reject).on('close', resolve);
  });
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`the ${name} build failed (exit ${code}); its output is above`);
  const report = JSON.parse(await readFile(reportFile, 'utf8')) as Pick<BuildRun, 'timings' | 'peakRssMb' | 'cpuSeconds'>;
  return { name, seconds, timings: report.timings, peakRssMb: report.peakRssMb, cpuSeconds: report.cpuSeconds };
}

/**
 * The median of several runs of one build (the run whose wall time is the median, with its own
 * stages), keeping every run's wall time: the machines are shared, so one run says little.
 */
export function medianRun(runs: BuildRun[]): BuildRun {
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)]!, samples: runs.map((run) => run.seconds) };
}

/**
 * Moves a folder, if there is one, into `asideDir` for removal once nothing is measured. On a
 * file system without a journal (ext4 here), creating files goes several times slower for minutes
 * after many were deleted, so deleting the last run's output would slow the next run's build.
 */
export async function setAside(folder: string, asideDir: string): Promise<void> {
  await mkdir(asideDir, { recursive: true });
  await rename(folder, path.join(asideDir, `${path.basename(folder)}-${Date.now()}-${process.pid}`)).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    },
  );
}

/** Lets the system write out what is pending (`sync`, where there is one), so a build does not pay for earlier writes. */
export function flushWrites(): Promise<void> {
  return new Promise((resolve) =>
    spawn('sync', { stdio: 'ignore' })
      .on('error', () => resolve())
      .on('close', () => resolve()),
  );
}

/** Total size in bytes and number of files under a folder. */
export async function folderSize(dir: string): Promise<{ bytes: number; files: number }> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile());
  const sizes = await Promise.all(files.map((entry) => stat(path.join(entry.parentPath, entry.name)).then((info) => info.size)));
  return { bytes: sizes.reduce((sum, size) => sum + size, 0), files: files.length };
}
