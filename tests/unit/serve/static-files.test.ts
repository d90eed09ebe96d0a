import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeOf, serveStaticFiles } from '../../../src/lib/serve/static-files.ts';

let site: Awaited<ReturnType<typeof serveStaticFiles>>;

/** A raw GET, so the path reaches the server exactly as written (fetch would normalise `..`). */
function get(rawPath: string, method = 'GET'): Promise<{ status: number; type: string | undefined; location: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${site.url}/`, { method, path: rawPath }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, type: response.headers['content-type'], location: response.headers.location, body }));
    });
    req.on('error', reject).end();
  });
}

beforeAll(async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'static-'));
  mkdirSync(path.join(root, 'garments', 'tee', 'svc'), { recursive: true });
  mkdirSync(path.join(root, '.garment-press'));
  writeFileSync(path.join(root, 'garments', 'tee', 'svc', 'index.html'), '<h1>Tee</h1>');
  writeFileSync(path.join(root, 'garments', 'tee', 'svc.md'), '# Tee');
  writeFileSync(path.join(root, '404.html'), '<h1>Not found</h1>');
  writeFileSync(path.join(root, '.garment-press', 'build-state.json'), '{"secret": "paths"}');
  writeFileSync(path.join(tmpdir(), 'outside.txt'), 'outside');
  site = await serveStaticFiles(root);
});
afterAll(() => site.close());

describe('serveStaticFiles', () => {
  it('serves a page folder through its index and a Markdown twin as text/markdown', async () => {
    expect(await get('/garments/tee/svc/')).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', body: '<h1>Tee</h1>' });
    expect(await get('/garments/tee/svc.md')).toMatchObject({ status: 200, type: 'text/markdown; charset=utf-8' });
  });

  it('redirects a folder without its trailing slash', async () => {
    expect(await get('/garments/tee/svc?x=1')).toMatchObject({ status: 301, location: '/garments/tee/svc/?x=1' });
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
