// The local MCP server (`npm run -s mcp -- --dir DIR`) as a desktop client starts it: a child
// process spoken to over stdio by the SDK's own Client, over a site built from the sample records.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../support/records.ts';
import { node, runCli } from '../../support/run.ts';
import { eventually } from '../publish/support.ts';
import { callTool, stdioClient, textOf, toolErrorOf } from './support.ts';

const SITE = 'https://garments.example/';
let outDir: string;
let client: Client;
let stderr: () => string;

beforeAll(async () => {
  outDir = path.join(mkdtempSync(path.join(tmpdir(), 'mcp-stdio-')), 'dist');
  const built = runCli('build.ts', ['--records', path.join(projectRoot, 'records'), '--out', outDir, '--site', SITE]);
  expect(built.status, built.stderr).toBe(0);
  ({ client, stderr } = await stdioClient(outDir));
});

afterAll(async () => {
  await client?.close();
});

describe('npm run -s mcp', () => {
  it('lists the read-only tools, and no publishing ones', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'garments.get_record',
      'garments.list',
      'garments.list_revisions',
      'garments.search',
    ]);
    expect(tools.every((tool) => tool.outputSchema?.type === 'object' && tool.annotations?.readOnlyHint === true)).toBe(true);
  });

  it("reads a record's JSON and Markdown twins as the site publishes them", async () => {
    const slug = 'harbor-pike-hp450-fleece-pullover-hoodie';
    const json = await callTool(client, 'garments.get_record', { slug, projection: 'tech' });
    expect(json.structuredContent).toMatchObject({
      slug,
      projection: 'tech',
      format: 'json',
      url: `${SITE}garments/${slug}/tech.json`,
      mime_type: 'application/json',
    });
    expect(textOf(json)).toBe(readFileSync(path.join(outDir, `garments/${slug}/tech.json`), 'utf8'));
    const markdown = await callTool(client, 'garments.get_record', { slug, projection: 'tech', format: 'markdown' });
    expect(textOf(markdown)).toBe(readFileSync(path.join(outDir, `garments/${slug}/tech.md`), 'utf8'));
    const missing = toolErrorOf(await callTool(client, 'garments.get_record', { slug: 'no-such-garment', projection: 'svc' }));
    expect(missing).toMatchObject({ code: 'not_found', problems: [{ pointer: '/slug' }] });
    const traversal = toolErrorOf(await callTool(client, 'garments.get_record', { slug: '../../etc/passwd', projection: 'svc' }));
    expect(traversal).toMatchObject({
      code: 'invalid_argument',
      problems: [{ pointer: '/slug', message: expect.stringContaining('must match') }],
    });
  });

  it('searches the built index, one result per garment, and keeps the protocol on stdout (log lines go to stderr)', async () => {
    const found = await callTool(client, 'garments.search', { query: 'fleece', sort: 'title', limit: 1 });
    const result = found.structuredContent as { total: number; garments: { title: string }[]; search_url: string };
    expect(result.total).toBe(2);
    expect(result.garments.map((garment) => garment.title)).toEqual(['Harbor & Pike HP-450 Brushed Fleece Pullover Hoodie']);
    expect(result.search_url).toBe(`${SITE}search/?q=fleece&sort=title`);
    expect(stderr()).toContain('garment-press MCP server on stdio');
    const nothing = toolErrorOf(await callTool(client, 'garments.search', { query: '  ', filters: { color: [' '] } }));
    expect(nothing).toMatchObject({ code: 'invalid_argument', problems: [{ pointer: '/query' }] });
  });

  it('gives a garment as its search result shows it: its records with their pages and research status, its key facts and a plain excerpt', async () => {
    const slug = 'fieldline-fl300-twill-work-jacket';
    const found = (await callTool(client, 'garments.search', { query: 'twill' })).structuredContent;
    expect(found).toMatchObject({ query: 'twill', searched: 'twill', corrected: false, suggestions: [], total: 1 });
    expect((found as { garments: unknown[] }).garments).toEqual([
      {
        slug,
        title: 'Fieldline FL-300 Twill Work Jacket (identity unresolved)',
        url: `${SITE}garments/${slug}/`,
        image: { url: expect.stringMatching(/^https:\/\//), alt: expect.any(String) },
        projections: [
          { code: 'svc', name: 'Commerce', url: `${SITE}garments/${slug}/svc/`, status: 'Model not confirmed' },
          { code: 'tech', name: 'Technical', url: `${SITE}garments/${slug}/tech/`, status: 'In progress' },
        ],
        key_facts: ['From $38.50', 'Sizes S–4XL', '2/1 twill, 65% polyester, 35% cotton', '7.75 oz/yd², 263 g/m²'],
        excerpt: expect.stringMatching(/twill/i),
      },
    ]);
    expect((found as { garments: { excerpt: string }[] }).garments[0]!.excerpt).not.toContain('<mark>');
  });

  it('searches a misspelling as the word it is one letter from, and offers near words when nothing is found', async () => {
    const corrected = (await callTool(client, 'garments.search', { query: 'hodie' })).structuredContent as {
      searched: string;
      corrected: boolean;
      garments: { slug: string }[];
    };
    expect(corrected).toMatchObject({ searched: 'hoodie', corrected: true });
    const hoodie = (await callTool(client, 'garments.search', { query: 'hoodie' })).structuredContent as typeof corrected;
    expect(corrected.garments.map((garment) => garment.slug)).toEqual(hoodie.garments.map((garment) => garment.slug));
    expect(hoodie.garments.length).toBeGreaterThan(0);
    const stuck = (await callTool(client, 'garments.search', { query: 'flxxce', filters: { category: ['tops'] } })).structuredContent;
    expect(stuck).toMatchObject({ searched: 'flxxce', corrected: false, total: 0, garments: [], suggestions: ['fleece'] });
  });

  it('runs a search without a word no garment says, and names it as the search page does', async () => {
    const fleece = (await callTool(client, 'garments.search', { query: 'fleece' })).structuredContent as { garments: { slug: string }[] };
    const found = (await callTool(client, 'garments.search', { query: 'fleece xqxq' })).structuredContent as typeof fleece;
    expect(found).toMatchObject({
      query: 'fleece xqxq',
      searched: 'fleece',
      corrected: true,
      dropped: ['xqxq'],
      note: 'No garment says “xqxq”; showing garments for “fleece”.',
      suggestions: [],
      total: 2,
    });
    expect(found.garments.map((garment) => garment.slug)).toEqual(fleece.garments.map((garment) => garment.slug));
    const asked = (await callTool(client, 'garments.search', { query: 'fleece' })).structuredContent;
    expect(asked).toMatchObject({ searched: 'fleece', corrected: false, dropped: [], note: '' });
    const misspelt = (await callTool(client, 'garments.search', { query: 'hodie' })).structuredContent;
    expect(misspelt).toMatchObject({ dropped: [], note: 'No garment says “hodie”; showing “hoodie” instead.' });
  });

  it('sorts by price from, lowest first, and by weight, lightest first, as its schema says', async () => {
    const { tools } = await client.listTools();
    const sort = tools.find((tool) => tool.name === 'garments.search')!.inputSchema.properties!.sort as { enum: string[] };
    expect(sort.enum).toEqual(['relevance', 'title', 'published', 'price', 'weight']);
    const sorted = async (by: string, projection: string, fact: RegExp) => {
      const found = (await callTool(client, 'garments.search', { query: '', filters: { projection: [projection] }, sort: by }))
        .structuredContent as { garments: { key_facts: string[] }[]; search_url: string };
      expect(found.search_url).toBe(`${SITE}search/?projection=${projection}&sort=${by}`);
      return found.garments.map((garment) => Number(garment.key_facts.map((text) => fact.exec(text)?.[1]).find(Boolean)));
    };
    const prices = await sorted('price', 'Commerce', /^From \$([\d.]+)/);
    expect(prices).toHaveLength(3);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(new Set(prices).size).toBe(3);
    const weights = await sorted('weight', 'Technical', /(\d+) g\/m²/);
    expect(weights).toHaveLength(3);
    expect(weights).toEqual([...weights].sort((a, b) => a - b));
    expect(new Set(weights).size).toBe(3);
  });

  it('exits by itself once its client closes stdin, after a search too', async () => {
    const child = spawn(node, [path.join(projectRoot, 'src/cli/mcp.ts'), '--dir', outDir], { stdio: ['pipe', 'pipe', 'ignore'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'garments.search', arguments: { query: 'tee' } } });
    const answers = await eventually(
      () => {
        const lines = stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line));
        return lines.length === 2 ? lines : undefined;
      },
      15_000,
      'two answers',
    );
    expect(answers[1].result.structuredContent.total).toBe(2);
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    expect(await exited).toBe(0);
    clearTimeout(timer);
  });

  it('says so and exits 1 for a folder without a built site', () => {
    const result = runCli('mcp.ts', ['--dir', path.join(outDir, 'nope')]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('holds no built site (no records.json): run npm run build, or pass --dir');
    expect(result.stdout).toBe('');
  });
});
