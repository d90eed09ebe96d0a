// garments.search gives what the site's search page shows: the MCP server over stdio (`npm run -s mcp`)
// and the search page in Chromium, over the same built sites, for the same searches: the same
// hits, in the same order, with the same titles, projections and excerpts, and the same count.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from '@playwright/test';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import { largeSiteUrl } from './site.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** A search as garments.search takes it. */
interface Search {
  query: string;
  filters?: Record<string, string[]>;
  sort?: 'title' | 'published';
}

interface ToolHit {
  title: string;
  projection: string;
  url: string;
  excerpt: string;
}

/** Searches of the site built from the sample records and the hostile fixture, three pages a shard. */
const SEARCHES: Search[] = [
  { query: 'fleece' },
  { query: 'cotton' },
  { query: 'cotton', filters: { projection: ['Technical'] } },
  { query: 'tee', sort: 'title' },
  { query: 'heavyweight', sort: 'published' },
  { query: '', filters: { colour: ['Navy', 'Black'] } },
  { query: '', filters: { projection: ['Commerce'], fabric: ['knit'] } },
  { query: 'embroidery', filters: { decoration: ['Embroidery'] } },
  { query: 'hoodie', filters: { size: ['3XL'] } },
  { query: 'polyester', filters: { brand: ['Ridgeline', 'Harbor & Pike'] } },
  { query: 'twill' },
  { query: '$12.95 script' },
  // A word no record has: Pagefind's nearest words, as on the page.
  { query: 'no-such-word-anywhere' },
];

/** Searches of the large site: more hits than the page shows at first. */
const LARGE_SEARCHES: Search[] = [{ query: 'tee' }, { query: '', filters: { category: ['tops'] }, sort: 'title' }];

function dist(variable: 'GARMENT_PRESS_E2E_DIST' | 'GARMENT_PRESS_E2E_LARGE_DIST'): string {
  const dir = process.env[variable];
  if (!dir) throw new Error(`${variable} is not set: run the browser tests through playwright.config.ts (npm run test:e2e)`);
  return dir;
}

async function connect(dir: string): Promise<Client> {
  const client = new Client({ name: 'garment-press-e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: path.join(root, 'node_modules/.bin/node'), args: [path.join(root, 'src/cli/mcp.ts'), '--dir', dir], cwd: root, stderr: 'ignore' }));
  return client;
}

/** What garments.search answers: the count, the hits (at most 50) and the search page's address. */
async function toolSearch(client: Client, search: Search) {
  const result = (await client.callTool({ name: 'garments.search', arguments: { ...search, limit: 50 } })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as { total: number; hits: ToolHit[]; search_url: string };
}

/** What the search page shows for an address: the count in its status line, and its first `count` hits. */
async function pageSearch(page: Page, address: string, count: number) {
  await page.goto(address);
  const status = page.locator('[data-search-status]');
  await expect(status).toHaveText(/\bresults? for\b|\bmatch(es)? the filters\b|^No /);
  const more = page.locator('[data-search-more]');
  const hits = page.locator('[data-search-results] .search-hit');
  while ((await hits.count()) < count && (await more.isVisible())) {
    const before = await hits.count();
    await more.click();
    await expect.poll(() => hits.count()).toBeGreaterThan(before);
  }
  const shown = await hits.evaluateAll((items) =>
    items.map((item) => ({
      title: item.querySelector('.search-hit-link bdi')!.textContent!,
      projection: item.querySelector('.projection-badge')!.textContent!,
      path: new URL(item.querySelector<HTMLAnchorElement>('.search-hit-link')!.href).pathname,
      excerpt: item.querySelector('.search-hit-excerpt')!.textContent!,
    })),
  );
  const counted = /^(\d+)/.exec((await status.textContent()) ?? '');
  return { total: counted ? Number(counted[1]) : 0, hits: shown.slice(0, count) };
}

async function compare(page: Page, client: Client, search: Search) {
  const answer = await toolSearch(client, search);
  const url = new URL(answer.search_url);
  const shown = await pageSearch(page, `${url.pathname}${url.search}`, answer.hits.length);
  const label = JSON.stringify(search);
  expect(answer.total, label).toBe(shown.total);
  expect(
    answer.hits.map((hit) => ({ title: hit.title, projection: hit.projection, path: new URL(hit.url).pathname, excerpt: hit.excerpt })),
    label,
  ).toEqual(shown.hits);
  return answer;
}

test.describe('garments.search and the search page', () => {
  let client: Client;
  test.beforeAll(async () => {
    client = await connect(dist('GARMENT_PRESS_E2E_DIST'));
  });
  test.afterAll(async () => {
    await client?.close();
  });

  test(`give the same hits in the same order for ${SEARCHES.length} searches over a site of several shards`, async ({ page }) => {
    const totals: number[] = [];
    for (const search of SEARCHES) totals.push((await compare(page, client, search)).total);
    // The searches are worth comparing: most find several pages.
    expect(totals.filter((total) => total > 1).length).toBeGreaterThanOrEqual(8);
  });
});

test.describe('garments.search and the search page on a large site', () => {
  test.use({ baseURL: largeSiteUrl() });
  let client: Client;
  test.beforeAll(async () => {
    client = await connect(dist('GARMENT_PRESS_E2E_LARGE_DIST'));
  });
  test.afterAll(async () => {
    await client?.close();
  });

  test('give the same first 50 hits, past the page\'s first 20, and the same count', async ({ page }) => {
    for (const search of LARGE_SEARCHES) {
      const answer = await compare(page, client, search);
      expect(answer.total).toBeGreaterThan(50);
      expect(answer.hits).toHaveLength(50);
    }
  });
});
