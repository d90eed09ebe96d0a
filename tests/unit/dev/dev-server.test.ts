import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevServer, serveDevSite } from '../../../src/lib/dev/dev-server.ts';

let site: string;
let server: DevServer;
const PAGE =
  '<!doctype html><html><head><title>Tee</title><script src="/scripts/page.js" defer></script></head><body><h1>Tee</h1></body></html>';

beforeAll(async () => {
  site = mkdtempSync(path.join(tmpdir(), 'dev-server-'));
  mkdirSync(path.join(site, 'garments/tee/svc'), { recursive: true });
  mkdirSync(path.join(site, 'scripts'));
  writeFileSync(path.join(site, 'garments/tee/svc/index.html'), PAGE);
  writeFileSync(path.join(site, 'scripts/page.js'), 'one();');
  writeFileSync(path.join(site, '404.html'), '<html><head></head><body>Not here</body></html>');
  server = await serveDevSite(site);
});

afterAll(() => server.close());

/** The reload script's attributes in a page as the server sends it. */
async function reloadScriptOf(address: string): Promise<{ page: string; version: string; events: string }> {
  const html = await (await fetch(`${server.url}${address}`)).text();
  const tag = /<script src="\/__garment-press\/live-reload\.js"[^>]*>/.exec(html)?.[0] ?? '';
  const attribute = (name: string) => new RegExp(`data-${name}="([^"]*)"`).exec(tag)?.[1] ?? '';
  return { page: attribute('page'), version: attribute('version'), events: attribute('events') };
}

/** An open page's event stream, read one event at a time. */
async function openStream(script: { page: string; version: string; events: string }) {
  const stop = new AbortController();
  const response = await fetch(`${server.url}${script.events}?${new URLSearchParams({ page: script.page, version: script.version })}`, {
    signal: stop.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  return {
    type: response.headers.get('content-type'),
    async next(): Promise<{ event: string; data: unknown }> {
      for (;;) {
        const events = buffered.split('\n\n');
        const complete = events.slice(0, -1).find((text) => text.startsWith('event: '));
        if (complete) {
          buffered = buffered.slice(buffered.indexOf(complete) + complete.length + 2);
          const [event, data] = complete.split('\n').map((line) => line.slice(line.indexOf(': ') + 2));
          return { event: event!, data: JSON.parse(data!) };
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('the stream ended');
        buffered += value;
      }
    },
    close: () => stop.abort(),
  };
}

describe('serveDevSite', () => {
  it('sends each page with the live-reload script, never cached, and leaves the file on disk as built', async () => {
    const response = await fetch(`${server.url}/garments/tee/svc/`);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const script = await reloadScriptOf('/garments/tee/svc/');
    expect(script).toEqual({
      page: '/garments/tee/svc/index.html',
      version: expect.stringMatching(/^[0-9a-f]{16}$/),
      events: '/__garment-press/events',
    });
    expect(readFileSync(path.join(site, 'garments/tee/svc/index.html'), 'utf8')).toBe(PAGE);
    expect(await (await fetch(`${server.url}/scripts/page.js`)).text()).toBe('one();');
    expect((await reloadScriptOf('/no-such-page/')).page).toBe('/404.html');
  });

  it('serves the live-reload script itself as JavaScript from the site’s own origin', async () => {
    const response = await fetch(`${server.url}/__garment-press/live-reload.js`);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await response.text()).toContain('new EventSource(');
  });

  it('tells an open page to reload when a script it loads changes, shows build problems, and takes them down', async () => {
    const script = await reloadScriptOf('/garments/tee/svc/');
    const stream = await openStream(script);
    expect(stream.type).toBe('text/event-stream; charset=utf-8');
    const problems = {
      summary: '1 error in 1 record file; this is the last good site.',
      problems: [{ file: 'records/tee.svc.json', pointer: '/page/title/kind', message: 'expected one of "fact"' }],
    };
    await server.announce(problems);
    expect(await stream.next()).toEqual({ event: 'problems', data: problems });
    await server.announce(undefined);
    expect(await stream.next()).toEqual({ event: 'clear', data: {} });
    writeFileSync(path.join(site, 'scripts/page.js'), 'two();');
    await server.announce(undefined);
    expect(await stream.next()).toEqual({ event: 'reload', data: {} });
    stream.close();
  });

  it('tells a page opened before the last build to reload as soon as it connects', async () => {
    const script = await reloadScriptOf('/garments/tee/svc/');
    writeFileSync(path.join(site, 'garments/tee/svc/index.html'), PAGE.replace('<h1>Tee</h1>', '<h1>Tee, edited</h1>'));
    const stream = await openStream(script);
    expect(await stream.next()).toEqual({ event: 'reload', data: {} });
    stream.close();
  });
});
