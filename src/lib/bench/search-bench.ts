import { spawn } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GarmentRecord } from '../record/types.ts';
import { buildSearchIndex, type SearchIndexSummary } from '../search/index/index-site.ts';
import { searchRecord, type SearchRecord } from '../search/index/search-record.ts';
import { siteEntryOf, type SiteEntry } from '../site/site-index.ts';
import { syntheticRecords } from './synthetic-records.ts';

const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));
const node = path.join(projectRoot, 'node_modules/.bin/node');

/**
 * Builds a site's search index from `count` synthetic records made in memory (no record files, no
 * pages), into `bundleDir`, replacing it: what the search bench needs of a site of that size. The
 * garment of the `rareGarment`th synthetic garment says a word no other does (synthetic-records.ts).
 */
export async function buildSyntheticIndex(
  templatesDir: string,
  count: number,
  bundleDir: string,
  shardPages: number | undefined,
  onProgress: (line: string) => void,
): Promise<SearchIndexSummary> {
  const names = (await readdir(templatesDir)).filter((name) => name.endsWith('.json')).sort();
  const templates = await Promise.all(
    names.map(async (name) => JSON.parse(await readFile(path.join(templatesDir, name), 'utf8')) as GarmentRecord),
  );
  const entries: SiteEntry[] = [];
  const pages = new Map<string, SearchRecord>();
  for (const { fileName, record } of syntheticRecords(templates, count)) {
    const entry = siteEntryOf(record, path.join(templatesDir, 'synthetic', fileName));
    entries.push(entry);
    pages.set(entry.file, searchRecord(entry, record));
  }
  onProgress(`made ${entries.length} synthetic records' search records`);
  return buildSearchIndex(entries, bundleDir, {
    shardPages,
    pageOf: (entry) => {
      const page = pages.get(entry.file)!;
      pages.delete(entry.file);
      return page;
    },
    onProgress: (indexed, total) => onProgress(`  search index: ${indexed} of ${total} records`),
  });
}

/** Builds the site of the sample records (its pages, script and styles), the shell the synthetic index is put in. */
export function buildShellSite(recordsDir: string, outDir: string, onOutput: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [path.join(projectRoot, 'src/cli/build.ts'), '--records', recordsDir, '--out', outDir, '--fresh'], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) =>
      chunk
        .split('\n')
        .filter(Boolean)
        .forEach((line) => onOutput(`  ${line}`)),
    );
    child
      .on('error', reject)
      .on('close', (code) => (code === 0 ? resolve() : reject(new Error(`the shell site's build failed (exit ${code})`))));
  });
}

/** Removes a folder the bench made: a built site's search index, so the synthetic one can take its place, or the last run's site. */
export async function removeIndex(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** A request that reached the network (the proxy): when it arrived (ms since the epoch), and the bytes of its answer's body. */
export interface ProxiedRequest {
  path: string;
  at: number;
  bytes: number;
}

/**
 * A proxy on loopback that answers each request `delayMs` after the server behind it did: a phone
 * on a fair network, its round trip. It keeps every request it answered (`requests`), so what the
 * browser took from its cache is not counted.
 */
export async function delayProxy(
  target: string,
  delayMs: number,
): Promise<{ url: string; requests: ProxiedRequest[]; close: () => Promise<void> }> {
  const { hostname, port } = new URL(target);
  const requests: ProxiedRequest[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const at = Date.now();
    const forwarded = httpRequest({ hostname, port, path: incoming.url, method: incoming.method, headers: incoming.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () =>
        setTimeout(() => {
          const body = Buffer.concat(chunks);
          requests.push({ path: incoming.url ?? '', at, bytes: body.length });
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          outgoing.end(body);
        }, delayMs),
      );
    });
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One search as the bench measured it in the browser. */
export interface SearchMeasure {
  scenario: string;
  /** The page's address, less the origin. */
  address: string;
  cache: 'cold' | 'warm';
  /** From the start of navigation to the first hit in the page, seconds. */
  firstHitSeconds: number | null;
  /** Requests that reached the site (not answered from the browser's cache) until then, and the bytes of their bodies as sent (compressed where the server compressed them). */
  requests: number;
  bytes: number;
  /** The result line the page showed. */
  status: string;
}

/** The bench's results as a Markdown table. */
export function formatSearchTable(measures: readonly SearchMeasure[]): string {
  const rows = measures.map(
    (m) =>
      `| ${m.scenario} | ${m.cache} | ${m.firstHitSeconds === null ? 'no hit' : `${m.firstHitSeconds.toFixed(2)} s`} | ${m.requests} | ${(m.bytes / 1024).toFixed(0)} KB | ${m.status} |`,
  );
  return ['| search | cache | first hit | requests | transferred | result line |', '|---|---|---:|---:|---:|---|', ...rows].join('\n');
}

/** The CPU one search takes in Node, over the same index with the same search code: a figure the machine's other work sways far less than a browser's wall time. */
export interface SearchCpu {
  scenario: string;
  /** CPU time, milliseconds, of the search and the first hit's data: the first time (chunks loaded and decoded), and again. */
  firstMs: number;
  againMs: number;
  garments: number;
}

/** Runs each search twice in this process over the site's index in `siteDir`, as the browser's script does, and measures its CPU time. */
export async function measureSearchCpu(
  siteDir: string,
  searches: readonly { scenario: string; words: string; filters: Record<string, string[]> }[],
): Promise<SearchCpu[]> {
  const file = (sitePath: string) => path.join(siteDir, sitePath.split('?')[0]!);
  const realFetch = globalThis.fetch;
  // Pagefind's script fetches its files: here they are read from the site's folder.
  globalThis.fetch = (async (url: string | URL) => new Response(await readFile(file(String(url))))) as typeof fetch;
  try {
    const { openSearchIndex, searchGarments } = await import('../search/query/shard-search.ts');
    const list = JSON.parse(await readFile(file('/pagefind/shards.json'), 'utf8'));
    const index = await openSearchIndex(list, {
      pagefind: (bundle) => import(path.join(file(bundle), 'pagefind.js')),
      json: async (sitePath) => JSON.parse(await readFile(file(sitePath), 'utf8')),
    });
    const measured: SearchCpu[] = [];
    for (const { scenario, words, filters } of searches) {
      const times: number[] = [];
      let garments = 0;
      for (let run = 0; run < 2; run++) {
        const before = process.cpuUsage();
        const found = await searchGarments(index, { words, filters, sort: null, counts: false });
        await found.hits.next(1);
        const used = process.cpuUsage(before);
        times.push((used.user + used.system) / 1000);
        garments = found.hits.count;
      }
      measured.push({ scenario, firstMs: times[0]!, againMs: times[1]!, garments });
    }
    return measured;
  } finally {
    globalThis.fetch = realFetch;
  }
}
