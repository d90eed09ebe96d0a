// Sites built once per test run and shared by every test file that only reads them: the first file
// to ask builds (holding a lock folder), the others, in other worker processes, wait for it. Each
// lives in the run's temporary folder (temp-root.ts), removed when the run ends.
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from './records.ts';
import { runCli } from './run.ts';

/** A built site to read, never to change: its records folder, its output, its address and what the build printed. */
export interface SharedSite {
  records: string;
  dist: string;
  site: string;
  stdout: string;
}

/** The shared sites, each by the records it is built from and its address. */
const SITES = {
  /** records/ and the hostile fixture (tests/fixtures/hostile). */
  'samples-and-hostile': {
    folders: [path.join(projectRoot, 'records'), path.join(projectRoot, 'tests/fixtures/hostile')],
    site: 'https://garments.example.org',
  },
} satisfies Record<string, { folders: string[]; site: string }>;

/** How long to wait for another worker's build of a shared site. */
const BUILD_WAIT_MS = 240_000;

const built = new Map<keyof typeof SITES, SharedSite>();

/** The shared site `name`, built now if no test of this run built it yet. */
export async function sharedSite(name: keyof typeof SITES): Promise<SharedSite> {
  const known = built.get(name);
  if (known) return known;
  const dir = path.join(tmpdir(), 'shared-sites', name);
  const site = { records: path.join(dir, 'records'), dist: path.join(dir, 'dist') };
  const done = path.join(dir, 'build.json');
  mkdirSync(path.dirname(dir), { recursive: true });
  if (claim(dir)) {
    const { folders, site: address } = SITES[name];
    for (const folder of folders) cpSync(folder, site.records, { recursive: true, filter: (file) => !file.endsWith('.md') });
    const result = runCli('build.ts', ['--records', site.records, '--out', site.dist, '--site', address]);
    // Whole or not at all, for the files waiting on it.
    writeFileSync(`${done}.part`, JSON.stringify(result));
    renameSync(`${done}.part`, done);
  }
  const result = await waitFor(done);
  if (result.status !== 0 || result.stderr !== '')
    throw new Error(`the shared site ${name} did not build:\n${result.stdout}\n${result.stderr}`);
  const shared = { ...site, site: SITES[name].site, stdout: result.stdout };
  built.set(name, shared);
  return shared;
}

/** Whether this process is the first to claim the folder (making it is atomic). */
function claim(dir: string): boolean {
  try {
    mkdirSync(dir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** What the build that wrote `file` printed, once it has. */
async function waitFor(file: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const deadline = Date.now() + BUILD_WAIT_MS;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`waited ${BUILD_WAIT_MS / 1000} s for another test file to build ${path.dirname(file)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}
