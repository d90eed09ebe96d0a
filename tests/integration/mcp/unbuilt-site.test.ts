// A service started before its site was ever built: the read-only tools say so, naming no server path.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPublishService, type PublishService } from '../../../src/lib/service/index.ts';
import { projectRoot } from '../../support/records.ts';
import { callTool, httpClient, toolErrorOf } from './support.ts';

let work: string;
let service: PublishService;
let client: Client;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'mcp-unbuilt-'));
  cpSync(path.join(projectRoot, 'records'), path.join(work, 'records'), { recursive: true });
  service = await startPublishService({
    dataDir: path.join(work, 'data'),
    recordsDir: path.join(work, 'records'),
    outDir: path.join(work, 'out'),
    port: 0,
    buildSite: async () => ({ ok: true, output: '', seconds: 0 }),
    log: () => {},
  });
  client = await httpClient(service.url);
});

afterAll(async () => {
  await client?.close();
  await service?.close({ graceMs: 1000 });
});

it('answers site_unavailable from the read-only tools until the site is built', async () => {
  for (const [name, args] of [
    ['garments.search', { query: 'tee' }],
    ['garments.get_record', { slug: 'tee', projection: 'svc' }],
    ['garments.list', {}],
  ] as const) {
    const error = toolErrorOf(await callTool(client, name, args));
    expect(error.code, name).toBe('site_unavailable');
    expect(error.message, name).toMatch(/^the site has (not been built yet|no search index yet)/);
    expect(error.message, name).not.toContain(work);
  }
});
