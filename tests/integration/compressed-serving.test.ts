// What a CDN gets from `npm run preview` and `npm run serve` (issue 37 item 5), asked with real curl:
// byte ranges, brotli and zstd (the build's precompressed files for the site's lists and twins of 1 MiB or more), decompressed with node:zlib.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRECOMPRESS_FROM_BYTES, writePrecompressedFiles } from '../../src/lib/pipeline/precompressed-files.ts';
import { projectRoot } from '../support/records.ts';
import { node, runCli } from '../support/run.ts';
import { eventually } from './publish/support.ts';

let work: string;
let outDir: string;
const servers: ChildProcess[] = [];

/** Starts one of the serving CLIs on a free port and resolves with its address once it says it. */
async function startCli(script: string, args: string[]): Promise<string> {
  const child = spawn(node, [path.join(projectRoot, 'src/cli', script), '--port', '0', ...args], { cwd: projectRoot });
  servers.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  return eventually(() => /(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1], 30_000, `${script} to listen; it printed:\n${output}`);
}

/** Runs curl, returning the headers (lower-cased names) and the body bytes exactly as sent. */
function curl(url: string, ...args: string[]): { status: number; headers: Record<string, string>; body: Buffer } {
  const headersFile = path.join(work, 'headers.txt');
  const body = execFileSync('curl', ['-s', '-D', headersFile, ...args, url], { maxBuffer: 64 << 20 });
  const lines = readFileSync(headersFile, 'latin1').trim().split('\r\n');
  const headers = Object.fromEntries(
    lines.slice(1).map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(lines[0]!.split(' ')[1]), headers, body };
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'compressed-serving-'));
  outDir = path.join(work, 'out');
  const built = runCli('build.ts', ['--out', outDir]);
  expect(built.status, built.stderr).toBe(0);
}, 300_000);
afterAll(() => {
  for (const server of servers) server.kill();
  rmSync(work, { recursive: true, force: true });
});

describe('the build', () => {
  it('writes brotli and zstd copies beside records.json, records.csv and llms.txt, not beside twins under 1 MiB, and builds again over them', () => {
    const records = readFileSync(path.join(outDir, 'records.json'));
    expect(brotliDecompressSync(readFileSync(path.join(outDir, 'records.json.br')))).toEqual(records);
    expect(zstdDecompressSync(readFileSync(path.join(outDir, 'records.csv.zst')))).toEqual(readFileSync(path.join(outDir, 'records.csv')));
    expect(zstdDecompressSync(readFileSync(path.join(outDir, 'llms.txt.zst')))).toEqual(readFileSync(path.join(outDir, 'llms.txt')));
    const twin = path.join(outDir, 'garments', 'ridgeline-rk6210-heavyweight-tee', 'svc.json');
    expect(statSync(twin).size).toBeLessThan(PRECOMPRESS_FROM_BYTES);
    expect(existsSync(`${twin}.br`)).toBe(false);
    expect(existsSync(path.join(outDir, 'index.html.br'))).toBe(false);
    const again = runCli('build.ts', ['--out', outDir, '--fresh']);
    expect(again.status, again.stderr).toBe(0);
  }, 300_000);

  it('precompresses a twin of 1 MiB or more, and leaves its copies when they are as new as it', async () => {
    const site = path.join(work, 'large-twin');
    const large = path.join('garments', 'large', 'svc.md');
    const small = path.join('garments', 'small', 'svc.md');
    mkdirSync(path.join(site, 'garments', 'large'), { recursive: true });
    mkdirSync(path.join(site, 'garments', 'small'), { recursive: true });
    const text = Buffer.from('A garment described at length. '.repeat(40_000));
    writeFileSync(path.join(site, large), text);
    writeFileSync(path.join(site, small), 'A short twin.');
    expect(await writePrecompressedFiles(site, [large, small])).toBe(1);
    expect(brotliDecompressSync(readFileSync(path.join(site, `${large}.br`)))).toEqual(text);
    expect(zstdDecompressSync(readFileSync(path.join(site, `${large}.zst`)))).toEqual(text);
    expect(existsSync(path.join(site, `${small}.br`))).toBe(false);
    expect(await writePrecompressedFiles(site, [large, small])).toBe(0);
  }, 120_000);
});

describe.each([
  ['npm run preview', 'preview.ts', () => ['--dir', outDir]],
  ['npm run serve', 'serve.ts', () => ['--out', outDir, '--records', path.join(projectRoot, 'records'), '--data', path.join(work, 'data')]],
])('%s', (_name, script, args) => {
  let url: string;
  beforeAll(async () => {
    url = await startCli(script, args());
  }, 60_000);

  it('answers curl -r 0-99 with the first 100 bytes (206), and a range past the end with 416', () => {
    const records = readFileSync(path.join(outDir, 'records.json'));
    const part = curl(`${url}/records.json`, '-r', '0-99');
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${records.length}`);
    expect(part.headers['accept-ranges']).toBe('bytes');
    expect(part.body).toEqual(records.subarray(0, 100));
    expect(curl(`${url}/records.json`, '-r', `${records.length}-`).status).toBe(416);
  });

  it('sends the precompressed brotli and zstd files to clients asking for them, with Vary and an ETag per encoding', () => {
    const records = readFileSync(path.join(outDir, 'records.json'));
    const plain = curl(`${url}/records.json`);
    const brotli = curl(`${url}/records.json`, '-H', 'Accept-Encoding: br');
    const zstd = curl(`${url}/records.json`, '-H', 'Accept-Encoding: zstd');
    expect(brotli.headers).toMatchObject({ 'content-encoding': 'br', vary: 'Accept-Encoding' });
    expect(brotli.body).toEqual(readFileSync(path.join(outDir, 'records.json.br')));
    expect(brotliDecompressSync(brotli.body)).toEqual(records);
    expect(zstd.headers).toMatchObject({ 'content-encoding': 'zstd', vary: 'Accept-Encoding' });
    expect(zstdDecompressSync(zstd.body)).toEqual(records);
    expect(new Set([plain.headers.etag, brotli.headers.etag, zstd.headers.etag]).size).toBe(3);
    // A page the build did not precompress is compressed as it goes out.
    const page = curl(`${url}/`, '-H', 'Accept-Encoding: br');
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.body).toString('utf8')).toMatch(/^<!DOCTYPE html>/i);
    const twin = curl(`${url}/garments/ridgeline-rk6210-heavyweight-tee/svc.json`, '-H', 'Accept-Encoding: zstd');
    expect(twin.headers['content-encoding']).toBe('zstd');
    expect(zstdDecompressSync(twin.body)).toEqual(
      readFileSync(path.join(outDir, 'garments', 'ridgeline-rk6210-heavyweight-tee', 'svc.json')),
    );
  });
});
