import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { delayProxy, formatSearchTable } from '../../../src/lib/bench/search-bench.ts';

describe('delayProxy', () => {
  it('answers as the server behind it does, the delay later, and keeps each request that reached it', async () => {
    const server = createServer((request, response) =>
      response.writeHead(200, { 'Content-Type': 'text/plain', 'X-Path': request.url ?? '' }).end('hello'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const proxy = await delayProxy(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 120);
    try {
      const started = performance.now();
      const answer = await fetch(`${proxy.url}/pagefind/shards.json?x=1`);
      expect(await answer.text()).toBe('hello');
      expect(answer.headers.get('x-path')).toBe('/pagefind/shards.json?x=1');
      expect(performance.now() - started).toBeGreaterThanOrEqual(115);
      expect(proxy.requests).toEqual([{ path: '/pagefind/shards.json?x=1', at: expect.any(Number), bytes: 5 }]);
    } finally {
      await proxy.close();
      server.close();
    }
  });
});

describe('formatSearchTable', () => {
  it('gives a row per search and cache, with the time to the first hit, requests and kilobytes', () => {
    const table = formatSearchTable([
      {
        scenario: 'brand',
        address: '/search/?q=k',
        cache: 'cold',
        firstHitSeconds: 1.234,
        requests: 20,
        bytes: 204_800,
        status: '3 garments for “k”',
      },
      { scenario: 'brand', address: '/search/?q=k', cache: 'warm', firstHitSeconds: null, requests: 3, bytes: 0, status: 'Searching…' },
    ]);
    expect(table.split('\n')).toEqual([
      '| search | cache | first hit | requests | transferred | result line |',
      '|---|---|---:|---:|---:|---|',
      '| brand | cold | 1.23 s | 20 | 200 KB | 3 garments for “k” |',
      '| brand | warm | no hit | 3 | 0 KB | Searching… |',
    ]);
  });
});
