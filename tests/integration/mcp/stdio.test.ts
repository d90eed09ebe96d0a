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
    expect(tools.map((tool) => tool.name).sort()).toEqual(['garments.get_record', 'garments.list', 'garments.search']);
    expect(tools.every((tool) => tool.outputSchema?.type === 'object' && tool.annotations?.readOnlyHint === true)).toBe(true);
  });

  it('reads a record\'s JSON and Markdown twins as the site publishes them', async () => {
    const slug = 'harbor-pike-hp450-fleece-pullover-hoodie';
    const json = await callTool(client, 'garments.get_record', { slug, projection: 'tech' });
    expect(json.structuredContent).toMatchObject({ slug, projection: 'tech', format: 'json', url: `${SITE}garments/${slug}/tech.json`, mime_type: 'application/json' });
    expect(textOf(json)).toBe(readFileSync(path.join(outDir, `garments/${slug}/tech.json`), 'utf8'));
    const markdown = await callTool(client, 'garments.get_record', { slug, projection: 'tech', format: 'markdown' });
    expect(textOf(markdown)).toBe(readFileSync(path.join(outDir, `garments/${slug}/tech.md`), 'utf8'));
    const missing = toolErrorOf(await callTool(client, 'garments.get_record', { slug: 'no-such-garment', projection: 'svc' }));
    expect(missing).toMatchObject({ code: 'not_found', problems: [{ pointer: '/slug' }] });
    const traversal = toolErrorOf(await callTool(client, 'garments.get_record', { slug: '../../etc/passwd', projection: 'svc' }));
    expect(traversal).toMatchObject({ code: 'invalid_argument', problems: [{ pointer: '/slug', message: expect.stringContaining('must match') }] });
  });

  it('searches the built index, and keeps the protocol on stdout (log lines go to stderr)', async () => {
    const found = await callTool(client, 'garments.search', { query: 'fleece', sort: 'title', limit: 2 });
    const result = found.structuredContent as { total: number; hits: { title: string }[]; search_url: string };
    expect(result.total).toBe(3);
    expect(result.hits).toHaveLength(2);
    expect(result.search_url).toBe(`${SITE}search/?q=fleece&sort=title`);
    expect(stderr()).toContain('garment-press MCP server on stdio');
    const nothing = toolErrorOf(await callTool(client, 'garments.search', { query: '  ', filters: { colour: [' '] } }));
    expect(nothing).toMatchObject({ code: 'invalid_argument', problems: [{ pointer: '/query' }] });
  });

  it('exits by itself once its client closes stdin, after a search too', async () => {
    const child = spawn(node, [path.join(projectRoot, 'src/cli/mcp.ts'), '--dir', outDir], { stdio: ['pipe', 'pipe', 'ignore'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'garments.search', arguments: { query: 'tee' } } });
    const answers = await eventually(() => {
      const lines = stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line));
      return lines.length === 2 ? lines : undefined;
    }, 15_000, 'two answers');
    expect(answers[1].result.structuredContent.total).toBe(3);
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
