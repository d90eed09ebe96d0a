import { appendFileSync, mkdirSync, mkdtempSync, renameSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeOf, httpDate, serveStaticFiles } from '../../../src/lib/serve/static-files.ts';

let site: Awaited<ReturnType<typeof serveStaticFiles>>;
let root: string;
/** A page long enough to be worth compressing. */
const LONG_PAGE = `<h1>Jacket</h1>${'<p>Twill – work jacket</p>'.repeat(200)}`;
/** A large file the build precompresses. */
const RECORDS_JSON = JSON.stringify(Array.from({ length: 400 }, (_, index) => ({ slug: `garment-${index}`, name: `Garment ${index}` })));

interface Answer {
  status: number;
  type: string | undefined;
  location: string | undefined;
  headers: IncomingHttpHeaders;
  /** The body as sent, before any Content-Encoding is undone. */
  raw: Buffer;
  body: string;
}

/** A raw GET, so the path reaches the server exactly as written (fetch would normalise `..`). */
function get(rawPath: string, method = 'GET', headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${site.url}/`, { method, path: rawPath, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const raw = Buffer.concat(chunks);
        // A part of a compressed body cannot be decompressed alone.
        const body = (response.statusCode === 206 ? raw : decode(response.headers['content-encoding'], raw)).toString('utf8');
        resolve({
          status: response.statusCode!,
          type: response.headers['content-type'],
          location: response.headers.location,
          headers: response.headers,
          raw,
          body,
        });
      });
    });
    req.on('error', reject).end();
  });
}

/** Undoes a Content-Encoding with node:zlib, as a CDN or a browser would. */
function decode(coding: string | undefined, raw: Buffer): Buffer {
  if (raw.length === 0 || coding === undefined) return raw;
  return { gzip: gunzipSync, br: brotliDecompressSync, zstd: zstdDecompressSync }[coding]!(raw);
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'static-'));
  mkdirSync(path.join(root, 'garments', 'tee', 'svc'), { recursive: true });
  mkdirSync(path.join(root, '.garment-press'));
  writeFileSync(path.join(root, 'garments', 'tee', 'svc', 'index.html'), '<h1>Tee</h1>');
  writeFileSync(path.join(root, 'garments', 'tee', 'svc.md'), '# Tee');
  writeFileSync(path.join(root, '404.html'), '<h1>Not found</h1>');
  mkdirSync(path.join(root, 'garments', 'jacket', 'svc'), { recursive: true });
  writeFileSync(path.join(root, 'garments', 'jacket', 'svc', 'index.html'), LONG_PAGE);
  mkdirSync(path.join(root, 'pagefind', 'fragment'), { recursive: true });
  writeFileSync(path.join(root, 'pagefind', 'fragment', 'en_1.pf_fragment'), Buffer.alloc(4096, 7));
  mkdirSync(path.join(root, 'pagefind', '0.en_9d5a863ff1'), { recursive: true });
  writeFileSync(path.join(root, 'pagefind', '0.en_9d5a863ff1', 'pagefind.js'), 'export {};');
  mkdirSync(path.join(root, 'pagefind', 'words'), { recursive: true });
  writeFileSync(path.join(root, 'pagefind', 'words', 'f.0123456789ab.json'), '{}');
  writeFileSync(path.join(root, 'pagefind', 'shards.json'), '{}');
  writeFileSync(path.join(root, '.garment-press', 'build-state.json'), '{"secret": "paths"}');
  mkdirSync(path.join(root, 'styles'));
  writeFileSync(path.join(root, 'styles', 'site.0123456789.css'), 'body{}');
  writeFileSync(path.join(tmpdir(), 'outside.txt'), 'outside');
  const outsideFolder = mkdtempSync(path.join(tmpdir(), 'outside-'));
  writeFileSync(path.join(outsideFolder, 'passwd'), 'root:x:0:0');
  symlinkSync(outsideFolder, path.join(root, 'lnk'));
  symlinkSync(path.join(outsideFolder, 'passwd'), path.join(root, 'passwd.txt'));
  symlinkSync(path.join(root, 'garments', 'tee'), path.join(root, 'tee-inside'));
  writeFileSync(path.join(root, 'records.json'), RECORDS_JSON);
  writeFileSync(path.join(root, 'records.json.br'), brotliCompressSync(RECORDS_JSON));
  // A precompressed file older than its file is left from an earlier build: never served.
  writeFileSync(path.join(root, 'records.json.zst'), 'stale');
  utimesSync(path.join(root, 'records.json.zst'), new Date(0), new Date(0));
  site = await serveStaticFiles(root);
});
afterAll(() => site.close());

describe('serveStaticFiles', () => {
  it('rejects when its port is taken, rather than ending the process with an unhandled error', async () => {
    const port = Number(new URL(site.url).port);
    await expect(serveStaticFiles(root, { port })).rejects.toThrow(/EADDRINUSE/);
  });

  it('keeps an idle connection open for a client to reuse after Node’s 5 s default, and says for how long', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const reused = (): Promise<{ reusedSocket: boolean; keepAlive: IncomingHttpHeaders[string] }> =>
      new Promise((resolve, reject) => {
        const asked = request(`${site.url}/garments/tee/svc/`, { agent }, (response) => {
          response.resume();
          response.on('end', () => resolve({ reusedSocket: asked.reusedSocket, keepAlive: response.headers['keep-alive'] }));
        });
        asked.on('error', reject).end();
      });
    try {
      expect(await reused()).toEqual({ reusedSocket: false, keepAlive: 'timeout=65' });
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await reused()).toEqual({ reusedSocket: true, keepAlive: 'timeout=65' });
    } finally {
      agent.destroy();
    }
  }, 15_000);

  it('serves a page folder through its index and a Markdown twin as text/markdown', async () => {
    expect(await get('/garments/tee/svc/')).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', body: '<h1>Tee</h1>' });
    expect(await get('/garments/tee/svc.md')).toMatchObject({ status: 200, type: 'text/markdown; charset=utf-8' });
  });

  it('redirects a folder without its trailing slash', async () => {
    expect(await get('/garments/tee/svc?x=1')).toMatchObject({ status: 301, location: '/garments/tee/svc/?x=1' });
  });

  it('reads a target starting with two slashes as a path, so no redirect leads off the site', async () => {
    // Normalised, the path is /garments/tee/svc; a Location starting `//evil.example` would be another host.
    const answer = await get('//h//evil.example/x%2F..%2F..%2Fgarments%2Ftee%2Fsvc');
    expect(answer.location ?? '').not.toMatch(/^\/\//);
    expect(answer.status).toBe(404);
    expect(await get('//garments/tee/svc')).toMatchObject({ status: 301, location: '/garments/tee/svc/' });
    expect((await get('//anything/')).status).toBe(404);
    // The absolute form, as a proxy sends it, names the same page by its path.
    expect(await get('http://garments.example/garments/tee/svc')).toMatchObject({ status: 301, location: '/garments/tee/svc/' });
  });

  it('lets browsers keep for good only files named by their content, wherever the site is served from', async () => {
    const cacheOf = async (rawPath: string) => (await get(rawPath)).headers['cache-control'];
    expect(await cacheOf('/pagefind/fragment/en_1.pf_fragment')).toBe('public, max-age=31536000, immutable');
    expect(await cacheOf('/styles/site.0123456789.css')).toBe('public, max-age=31536000, immutable');
    expect(await cacheOf('/garments/tee/svc/')).toBe('no-cache');
    // A search shard's folder and the word lists are named by their content; the list naming them is not.
    expect(await cacheOf('/pagefind/0.en_9d5a863ff1/pagefind.js')).toBe('public, max-age=31536000, immutable');
    expect(await cacheOf('/pagefind/words/f.0123456789ab.json')).toBe('public, max-age=31536000, immutable');
    expect(await cacheOf('/pagefind/shards.json')).toBe('no-cache');
    // A site kept in a folder named like Astro's assets folder is still a site of pages.
    const elsewhere = path.join(mkdtempSync(path.join(tmpdir(), 'static-')), '_astro', 'site');
    mkdirSync(elsewhere, { recursive: true });
    writeFileSync(path.join(elsewhere, 'index.html'), '<h1>Home</h1>');
    const other = await serveStaticFiles(elsewhere);
    try {
      const answer = await fetch(`${other.url}/`);
      expect(answer.headers.get('cache-control')).toBe('no-cache');
    } finally {
      await other.close();
    }
  });

  it("answers an unknown address with the site's 404 page", async () => {
    expect(await get('/garments/nope/')).toMatchObject({ status: 404, body: '<h1>Not found</h1>' });
  });

  it('never serves the build state kept in dot folders', async () => {
    expect(await get('/.garment-press/build-state.json')).toMatchObject({ status: 404, body: '<h1>Not found</h1>' });
  });

  it('refuses a path that climbs out of the site', async () => {
    expect((await get('/../outside.txt')).body).not.toContain('outside');
    expect((await get('/%2e%2e/outside.txt')).body).not.toContain('outside');
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    expect(await get('/garments/tee/svc.md', 'HEAD')).toMatchObject({ status: 200, body: '' });
    expect((await get('/garments/tee/svc.md', 'POST')).status).toBe(405);
  });

  it('answers a conditional GET for an unchanged file with 304 and no body, and a changed file in full', async () => {
    const first = await get('/garments/tee/svc/');
    const { etag, 'last-modified': lastModified } = first.headers;
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Date.parse(lastModified!)).not.toBeNaN();
    expect(await get('/garments/tee/svc/', 'GET', { 'If-None-Match': etag! })).toMatchObject({ status: 304, body: '' });
    expect(await get('/garments/tee/svc/', 'GET', { 'If-None-Match': `"other", W/${etag!}` })).toMatchObject({ status: 304 });
    expect(await get('/garments/tee/svc/', 'GET', { 'If-Modified-Since': lastModified! })).toMatchObject({ status: 304, body: '' });
    expect(await get('/garments/tee/svc/', 'GET', { 'If-None-Match': 'W/"other"', 'If-Modified-Since': lastModified! })).toMatchObject({
      status: 200,
      body: '<h1>Tee</h1>',
    });
    // What is not an HTTP-date is ignored (RFC 9110 §13.1.3), however late it would read.
    for (const notADate of ['3000', '2099-01-01', 'Dec 31 2099']) {
      expect(await get('/garments/tee/svc/', 'GET', { 'If-Modified-Since': notADate })).toMatchObject({ status: 200 });
    }
    // A rebuild writes a changed page anew and puts it in place.
    const page = path.join(root, 'garments', 'tee', 'svc', 'index.html');
    writeFileSync(`${page}.new`, '<h1>Tee, revised</h1>');
    utimesSync(`${page}.new`, new Date(), new Date(Date.now() + 5000));
    renameSync(`${page}.new`, page);
    const changed = await get('/garments/tee/svc/', 'GET', { 'If-None-Match': etag!, 'If-Modified-Since': lastModified! });
    expect(changed).toMatchObject({ status: 200, body: '<h1>Tee, revised</h1>' });
    expect(changed.headers.etag).not.toBe(etag);
    // The 404 page is no version of the address asked for.
    expect((await get('/garments/nope/')).headers.etag).toBeUndefined();
  });

  it('sends text gzipped to a client that accepts it, and as it is otherwise', async () => {
    const zipped = await get('/garments/jacket/svc/', 'GET', { 'Accept-Encoding': 'br;q=0.5, gzip;q=0.8' });
    expect(zipped.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
    expect(zipped.body).toBe(LONG_PAGE);
    expect(zipped.raw.length).toBeLessThan(Buffer.byteLength(LONG_PAGE) / 4);
    for (const accepted of [undefined, 'gzip;q=0', 'identity']) {
      const plain = await get('/garments/jacket/svc/', 'GET', accepted ? { 'Accept-Encoding': accepted } : {});
      expect(plain.headers['content-encoding'], accepted).toBeUndefined();
      expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(LONG_PAGE)));
      expect(plain.body).toBe(LONG_PAGE);
    }
    // Short text, and Pagefind's files (compressed already), go as they are.
    expect((await get('/garments/tee/svc.md', 'GET', { 'Accept-Encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
    const fragment = await get('/pagefind/fragment/en_1.pf_fragment', 'GET', { 'Accept-Encoding': 'gzip' });
    expect(fragment.headers['content-encoding']).toBeUndefined();
    expect(fragment.raw).toEqual(Buffer.alloc(4096, 7));
    expect(await get('/garments/jacket/svc/', 'HEAD', { 'Accept-Encoding': 'gzip' })).toMatchObject({
      status: 200,
      body: '',
      headers: { 'content-encoding': 'gzip' },
    });
  });

  it('answers a folder path made of encoded slashes with a redirect on this site, never to another host', async () => {
    const answer = await get('/%2Fx%2F..?@evil.example/');
    expect(answer).toMatchObject({ status: 301, location: '/?@evil.example/' });
  });

  it('follows no symbolic link leading out of the site, and serves one that stays inside', async () => {
    expect(await get('/lnk/passwd')).toMatchObject({ status: 404, body: '<h1>Not found</h1>' });
    expect((await get('/lnk')).status).toBe(404);
    expect(await get('/passwd.txt')).toMatchObject({ status: 404, body: '<h1>Not found</h1>' });
    expect(await get('/tee-inside/svc.md')).toMatchObject({ status: 200, body: '# Tee' });
  });

  it('answers a single byte range with 206 and one it cannot satisfy with 416, as a CDN expects', async () => {
    const size = Buffer.byteLength(RECORDS_JSON);
    const whole = await get('/records.json');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const first = await get('/records.json', 'GET', { Range: 'bytes=0-99' });
    expect(first).toMatchObject({ status: 206, headers: { 'content-range': `bytes 0-99/${size}`, 'content-length': '100' } });
    expect(first.raw).toEqual(Buffer.from(RECORDS_JSON).subarray(0, 100));
    expect((await get('/records.json', 'GET', { Range: 'bytes=-10' })).body).toBe(RECORDS_JSON.slice(-10));
    expect((await get('/records.json', 'GET', { Range: `bytes=${size - 5}-` })).body).toBe(RECORDS_JSON.slice(-5));
    expect(await get('/records.json', 'GET', { Range: `bytes=${size}-` })).toMatchObject({
      status: 416,
      body: '',
      headers: { 'content-range': `bytes */${size}` },
    });
    // Several ranges, another unit, or an If-Range naming another version: the whole file.
    const servedWhole: Record<string, string>[] = [
      { Range: 'bytes=0-1,5-6' },
      { Range: 'items=0-1' },
      { Range: 'bytes=0-99', 'If-Range': '"other"' },
    ];
    for (const headers of servedWhole) {
      expect(await get('/records.json', 'GET', headers)).toMatchObject({ status: 200, body: RECORDS_JSON });
    }
    expect((await get('/records.json', 'GET', { Range: 'bytes=0-99', 'If-Range': whole.headers.etag! })).status).toBe(206);
    // The 404 page is not the address asked for: no part of it.
    expect((await get('/garments/nope/', 'GET', { Range: 'bytes=0-1' })).status).toBe(404);
  });

  it('sends brotli or zstd where the client asks, each with its own ETag, preferring the file the build precompressed', async () => {
    const identity = await get('/garments/jacket/svc/');
    const brotli = await get('/garments/jacket/svc/', 'GET', { 'Accept-Encoding': 'br' });
    const zstd = await get('/garments/jacket/svc/', 'GET', { 'Accept-Encoding': 'gzip;q=0.5, zstd' });
    expect(brotli).toMatchObject({ body: LONG_PAGE, headers: { 'content-encoding': 'br', vary: 'Accept-Encoding' } });
    expect(zstd).toMatchObject({ body: LONG_PAGE, headers: { 'content-encoding': 'zstd', vary: 'Accept-Encoding' } });
    expect(new Set([identity.headers.etag, brotli.headers.etag, zstd.headers.etag]).size).toBe(3);
    // A cache holding one encoding's version is not told another's is fresh.
    expect((await get('/garments/jacket/svc/', 'GET', { 'Accept-Encoding': 'br', 'If-None-Match': identity.headers.etag! })).status).toBe(
      200,
    );
    expect((await get('/garments/jacket/svc/', 'GET', { 'Accept-Encoding': 'br', 'If-None-Match': brotli.headers.etag! })).status).toBe(
      304,
    );
    expect((await get('/garments/jacket/svc/', 'GET', { 'Accept-Encoding': 'br, zstd' })).headers['content-encoding']).toBe('br');

    const precompressed = await get('/records.json', 'GET', { 'Accept-Encoding': 'br, gzip' });
    expect(precompressed.headers).toMatchObject({ 'content-encoding': 'br', 'accept-ranges': 'bytes' });
    expect(precompressed.raw).toEqual(brotliCompressSync(RECORDS_JSON));
    expect(precompressed.headers['content-length']).toBe(String(precompressed.raw.length));
    expect(precompressed.body).toBe(RECORDS_JSON);
    const part = await get('/records.json', 'GET', { 'Accept-Encoding': 'br', Range: 'bytes=0-9' });
    expect(part).toMatchObject({ status: 206, headers: { 'content-encoding': 'br' } });
    expect(part.raw).toEqual(precompressed.raw.subarray(0, 10));
    // The stale zstd file beside it is older than the file: compressed as it goes out instead.
    const fresh = await get('/records.json', 'GET', { 'Accept-Encoding': 'zstd' });
    expect(fresh).toMatchObject({ body: RECORDS_JSON, headers: { 'content-encoding': 'zstd' } });
    expect(fresh.headers.etag).toMatch(/^W\//);
  });

  it('sends a file as large as it was when the answer began, so bytes added meanwhile cannot spill past the answer', async () => {
    const file = path.join(root, 'growing.bin');
    const size = 32 << 20;
    writeFileSync(file, Buffer.alloc(size, 1));
    // A raw connection, paused once the answer starts, so the server is mid-file when the file grows.
    const received = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = connect(Number(new URL(site.url).port), '127.0.0.1', () =>
        socket.write('GET /growing.bin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      );
      socket.once('data', () => {
        socket.pause();
        setTimeout(() => {
          appendFileSync(file, Buffer.alloc(4096, 2));
          socket.resume();
        }, 200);
      });
      socket
        .on('data', (chunk: Buffer) => chunks.push(chunk))
        .on('end', () => resolve(Buffer.concat(chunks)))
        .on('error', reject);
    });
    const headerEnd = received.indexOf('\r\n\r\n') + 4;
    expect(received.subarray(0, headerEnd).toString('latin1')).toContain(`Content-Length: ${size}\r\n`);
    expect(received.length - headerEnd).toBe(size);
    expect(received.includes(2, headerEnd)).toBe(false);
  });
});

describe('contentTypeOf', () => {
  it.each([
    ['a.json', 'application/json; charset=utf-8'],
    ['a.md', 'text/markdown; charset=utf-8'],
    ['sitemap.xml', 'application/xml; charset=utf-8'],
    ['pagefind.wasm', 'application/wasm'],
    ['blob.bin', 'application/octet-stream'],
  ])('serves %s as %s', (file, type) => {
    expect(contentTypeOf(file)).toBe(type);
  });
});

describe('httpDate', () => {
  it.each(['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'])(
    'reads %j, one of the three forms RFC 9110 names',
    (value) => {
      expect(httpDate(value)).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
    },
  );

  it.each(['3000', '2099-01-01', 'Dec 31 2099', 'Sun, 6 Nov 1994 08:49:37 GMT', 'Sun, 06 Nov 1994 08:49:37 UTC', '', undefined])(
    'reads %j as no date',
    (value) => {
      expect(httpDate(value)).toBeUndefined();
    },
  );
});
