import { appendFileSync, mkdirSync, mkdtempSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsGzip, contentTypeOf, httpDate, serveStaticFiles } from '../../../src/lib/serve/static-files.ts';

let site: Awaited<ReturnType<typeof serveStaticFiles>>;
let root: string;
/** A page long enough to be worth compressing. */
const LONG_PAGE = `<h1>Jacket</h1>${'<p>Twill – work jacket</p>'.repeat(200)}`;

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
        const body =
          response.headers['content-encoding'] === 'gzip' && raw.length > 0 ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
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
  site = await serveStaticFiles(root);
});
afterAll(() => site.close());

describe('serveStaticFiles', () => {
  it('rejects when its port is taken, rather than ending the process with an unhandled error', async () => {
    const port = Number(new URL(site.url).port);
    await expect(serveStaticFiles(root, { port })).rejects.toThrow(/EADDRINUSE/);
  });

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
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Date.parse(lastModified!)).not.toBeNaN();
    expect(await get('/garments/tee/svc/', 'GET', { 'If-None-Match': etag! })).toMatchObject({ status: 304, body: '' });
    expect(await get('/garments/tee/svc/', 'GET', { 'If-None-Match': `"other", ${etag!.slice(2)}` })).toMatchObject({ status: 304 });
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
    const zipped = await get('/garments/jacket/svc/', 'GET', { 'Accept-Encoding': 'br, gzip;q=0.8' });
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
        setTimeout(() => (appendFileSync(file, Buffer.alloc(4096, 2)), socket.resume()), 200);
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

describe('acceptsGzip', () => {
  it.each([
    ['gzip', true],
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, GZIP;q=0.5', true],
    ['*', true],
    ['br, *;q=0.1', true],
    [undefined, false],
    ['', false],
    ['identity', false],
    ['gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['br', false],
  ])('%j → %s', (header, accepted) => {
    expect(acceptsGzip(header)).toBe(accepted);
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
