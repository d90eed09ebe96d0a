// garments.search gives what the site's search page shows: the MCP server over stdio (`npm run -s mcp`)
// and the search page in Chromium, over the same built sites, for the same searches: the same
// garments, in the same order, each with the same title, records, key facts and excerpt, the same
// count, and the same correction or suggestions.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from '@playwright/test';
import path from 'node:path';
import { t } from '../../src/lib/site/strings.ts';
import { withoutForbiddenCharacters } from '../../src/lib/unicode.ts';
import { expect, test } from './fixtures.ts';
import { largeSiteUrl } from './site.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** A search as garments.search takes it. */
interface Search {
  query: string;
  filters?: Record<string, string[]>;
  sort?: 'title' | 'published' | 'price' | 'weight';
}

/** What garments.search answers. */
interface ToolAnswer {
  query: string;
  searched: string;
  corrected: boolean;
  dropped: string[];
  note: string;
  suggestions: string[];
  total: number;
  garments: {
    title: string;
    url: string;
    projections: { code: string; name: string; url: string; status: string }[];
    key_facts: string[];
    excerpt: string;
  }[];
  search_url: string;
}

/** Searches of the site built from the sample records and the hostile fixture, three pages a shard. */
const SEARCHES: Search[] = [
  { query: 'fleece' },
  { query: 'cotton' },
  { query: 'cotton', filters: { projection: ['Technical'] } },
  { query: 'tee', sort: 'title' },
  { query: 'heavyweight', sort: 'published' },
  { query: '', filters: { color: ['Navy', 'Black'] } },
  { query: '', filters: { projection: ['Commerce'], fabric: ['knit'] } },
  { query: '', filters: { category: ['tops'] }, sort: 'published' },
  { query: 'cotton', sort: 'price' },
  { query: '', filters: { projection: ['Technical'] }, sort: 'weight' },
  { query: 'fleece', sort: 'weight' },
  { query: 'embroidery', filters: { decoration: ['Embroidery'] } },
  { query: 'hoodie', filters: { size: ['3XL'] } },
  { query: 'polyester', filters: { brand: ['Ridgeline', 'Harbor & Pike'] } },
  { query: 'print' },
  { query: 'twill' },
  { query: '$12.95 tee' },
  // A misspelling one letter from a word garments say is searched as that word, and the page says so.
  { query: 'hodie' },
  { query: 'cotton jersy' },
  // A word no garment says nor is near is left out when other words are left, and the page says so.
  { query: 'fleece xqxq' },
  { query: 'xqxq tee', sort: 'price' },
  // Nothing found: the page offers near words, or nothing when no word is near.
  { query: 'flxxce', filters: { category: ['tops'] } },
  { query: 'no-such-word-anywhere' },
];

/** Searches of the large site: more garments than the page shows at first. */
const LARGE_SEARCHES: Search[] = [
  { query: 'tee' },
  { query: '', filters: { category: ['tops'] }, sort: 'title' },
  { query: 'tee', sort: 'price' },
];

function dist(variable: 'GARMENT_PRESS_E2E_DIST' | 'GARMENT_PRESS_E2E_LARGE_DIST'): string {
  const dir = process.env[variable];
  if (!dir) throw new Error(`${variable} is not set: run the browser tests through playwright.config.ts (npm run test:e2e)`);
  return dir;
}

async function connect(dir: string): Promise<Client> {
  const client = new Client({ name: 'garment-press-e2e', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: path.join(root, 'node_modules/.bin/node'),
      args: [path.join(root, 'src/cli/mcp.ts'), '--dir', dir],
      cwd: root,
      stderr: 'ignore',
    }),
  );
  return client;
}

/** What garments.search answers, with at most 50 garments. */
async function toolSearch(client: Client, search: Search): Promise<ToolAnswer> {
  const result = (await client.callTool({ name: 'garments.search', arguments: { ...search, limit: 50 } })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as unknown as ToolAnswer;
}

const pathOf = (url: string) => new URL(url).pathname;

/** What the search page shows for an address: the count in its status line, its first `count` garments, its correction note and its suggestions. */
async function pageSearch(page: Page, address: string, count: number) {
  await page.goto(address);
  const status = page.locator('[data-search-status]');
  await expect(status).toHaveText(/\bgarments? (for|in)\b|^No /);
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
      path: new URL(item.querySelector<HTMLAnchorElement>('.search-hit-link')!.href).pathname,
      // Each record's link: its label, its page, and the research status beside it (" · Complete").
      projections: [...item.querySelectorAll<HTMLAnchorElement>('.search-hit-pages a')].map((link) => ({
        label: link.firstChild!.textContent!,
        path: new URL(link.href).pathname,
        status: (link.querySelector('.search-hit-status')?.textContent ?? '').replace(/^ · /, ''),
      })),
      facts: [...item.querySelectorAll('.search-hit-facts li')].map((fact) => fact.textContent!),
      excerpt: item.querySelector('.search-hit-excerpt')!.textContent!,
    })),
  );
  const counted = /^([\d,]+)/.exec((await status.textContent()) ?? '');
  return {
    total: counted ? Number(counted[1]!.replaceAll(',', '')) : 0,
    garments: shown.slice(0, count),
    note: await page.locator('[data-search-note]').textContent(),
    suggestions: await page.locator('[data-search-suggestions] button').allTextContents(),
  };
}

async function compare(page: Page, client: Client, search: Search): Promise<ToolAnswer> {
  const answer = await toolSearch(client, search);
  const url = new URL(answer.search_url);
  const shown = await pageSearch(page, `${url.pathname}${url.search}`, answer.garments.length);
  const label = JSON.stringify(search);
  expect(answer.total, label).toBe(shown.total);
  // The tool answers with the records' text; the page shows it as every page does, a character HTML forbids as U+FFFD.
  expect(
    answer.garments.map((garment) => ({
      title: withoutForbiddenCharacters(garment.title),
      path: pathOf(garment.url),
      projections: garment.projections.map((record) => ({
        label: t('search.hit.projectionLink', { projection: record.name }),
        path: pathOf(record.url),
        status: withoutForbiddenCharacters(record.status),
      })),
      facts: garment.key_facts.map(withoutForbiddenCharacters),
      excerpt: garment.excerpt,
    })),
    label,
  ).toEqual(shown.garments);
  expect(answer.note, label).toBe(shown.note ?? '');
  expect(answer.suggestions.map(withoutForbiddenCharacters), label).toEqual(shown.suggestions);
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

  test(`give the same garments in the same order for ${SEARCHES.length} searches over a site of several shards`, async ({ page }) => {
    // Eighteen page loads and searches: more than the default minute on a loaded machine.
    test.slow();
    const answers: ToolAnswer[] = [];
    for (const search of SEARCHES) answers.push(await compare(page, client, search));
    // The searches are worth comparing: most find several garments, some are corrected, one gets suggestions.
    expect(answers.filter((answer) => answer.total > 1).length).toBeGreaterThanOrEqual(10);
    expect(answers.filter((answer) => answer.corrected).length).toBeGreaterThanOrEqual(4);
    expect(answers.filter((answer) => answer.dropped.length > 0).length).toBe(2);
    expect(answers.some((answer) => answer.total === 0 && answer.suggestions.length > 0)).toBe(true);
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

  test("give the same first 50 garments, past the page's first 10, and the same count", async ({ page }) => {
    for (const search of LARGE_SEARCHES) {
      const answer = await compare(page, client, search);
      expect(answer.total).toBeGreaterThan(50);
      expect(answer.garments).toHaveLength(50);
    }
  });
});
