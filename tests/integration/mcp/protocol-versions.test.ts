// Both protocol versions /mcp and `npm run mcp` serve, each driven by the SDK's own client: v2's
// (2026-07-28: server/discover, a _meta envelope per request) and v1's (2025-11-25: initialize), on
// the real service with real builds; progress notifications while a publish is followed.
import type { Client as ClientV2 } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, UUID, type Organization, type Receiver, type ServeProcess } from '../publish/support.ts';
import { SITE, startServedSite, teeRevision, type ServedSite } from './served-site.ts';
import { followWithProgress, httpClient, httpClientV2, progressLines, stdioClient, stdioClientV2, textOf } from './support.ts';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

let site: ServedSite;
let outDir: string;
let receiver: Receiver;
let serve: ServeProcess;
let acme: Organization;

beforeAll(async () => {
  site = await startServedSite('mcp-versions-', ['Acme']);
  ({ receiver, serve } = site);
  outDir = site.workspace.outDir;
  [acme] = site.organizations as [Organization];
}, 90_000);

afterAll(() => site?.close());

const FULL_COURSE = ['0/1 queued: queued', '0.5/1 running: building site', '1/1 complete: complete'];

describe('an SDK v2 client (protocol 2026-07-28) on /mcp', () => {
  let connected: { client: ClientV2; wire: () => Promise<string[]> };
  beforeAll(async () => {
    connected = await httpClientV2(serve.url, acme.key);
  });
  afterAll(() => connected?.client.close());

  it('negotiates 2026-07-28 and lists the tools its key may use, marked private to it', async () => {
    const { client, wire } = connected;
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(client.getProtocolEra()).toBe('modern');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'garments.get_generation',
      'garments.get_record',
      'garments.list',
      'garments.list_revisions',
      'garments.publish',
      'garments.search',
    ]);
    const listed = (await wire()).map((body) => JSON.parse(body)).find((message) => message.result?.tools !== undefined);
    expect(listed.result).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: 0 });

    const anonymous = await httpClientV2(serve.url);
    expect((await anonymous.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'garments.get_record',
      'garments.list',
      'garments.list_revisions',
      'garments.search',
    ]);
    await anonymous.client.close();
  });

  it('says a resource that is not there is not found with -32602 and its uri', async () => {
    const uri = `${SITE}garments/no-such-thing/svc.json`;
    await expect(connected.client.readResource({ uri })).rejects.toMatchObject({ code: -32602, data: { uri } });
  });

  it('publishes and waits in the same call: progress at each stage to complete, and the event data is the poll byte for byte', async () => {
    const { client } = connected;
    const notes: Progress[] = [];
    const published = (await client.callTool(
      {
        name: 'garments.publish',
        arguments: { record: teeRevision('2026-11-28.1'), callback_url: `${receiver.url}/hooks/v2`, wait_seconds: 50 },
      },
      { onprogress: (note) => notes.push(note), timeout: 90_000 },
    )) as CallToolResult;
    expect(published.isError).toBeFalsy();
    const { handle, generation } = published.structuredContent as { handle: string; generation: { status: string; done: boolean } };
    expect(handle).toMatch(UUID);
    expect(generation).toMatchObject({ status: 'complete', done: true, progress: 1 });
    // Each stage the follower saw once, in order, ending at the terminal one.
    expect(progressLines(notes)).toEqual(expect.arrayContaining(FULL_COURSE.slice(1)));
    expect(notes.map((note) => note.progress)).toEqual([...notes.map((note) => note.progress)].sort((a, b) => a - b));
    expect(progressLines(notes).at(-1)).toBe('1/1 complete: complete');

    const polled = (await client.callTool({ name: 'garments.get_generation', arguments: { handle } })) as CallToolResult;
    const [delivery] = await eventually(
      () => (receiver.acceptedFor(handle).length > 0 ? receiver.acceptedFor(handle) : undefined),
      15_000,
      'the event',
    );
    const rawData = delivery!.rawBody.slice(delivery!.rawBody.indexOf('"data":') + '"data":'.length, -1);
    expect(rawData).toBe(textOf(polled));
    expect(JSON.parse(rawData)).toEqual(generation);
  }, 120_000);

  it('sends no progress to a call without a progressToken', async () => {
    const { client, wire } = connected;
    const before = (await wire()).length;
    const published = (await client.callTool(
      { name: 'garments.publish', arguments: { record: teeRevision('2026-11-28.2'), wait_seconds: 50 } },
      { timeout: 90_000 },
    )) as CallToolResult;
    expect((published.structuredContent as { generation: { done: boolean } }).generation.done).toBe(true);
    const bodies = (await wire()).slice(before);
    expect(bodies.join('\n')).toContain('"generation"');
    expect(bodies.join('\n')).not.toContain('notifications/progress');
  }, 120_000);
});

describe('an SDK v1 client (protocol 2025-11-25) on /mcp', () => {
  let client: Client;
  beforeAll(async () => {
    client = await httpClient(serve.url, acme.key);
  });
  afterAll(() => client?.close());

  it('negotiates 2025-11-25, publishes, and hears each stage of a long poll sent with a progressToken', async () => {
    expect((client.transport as StreamableHTTPClientTransport).protocolVersion).toBe(LEGACY);
    const published = (await client.callTool({
      name: 'garments.publish',
      arguments: { record: teeRevision('2026-11-28.3') },
    })) as CallToolResult;
    const { handle } = published.structuredContent as { handle: string };
    const notes = await followWithProgress(client, handle);
    expect(progressLines(notes).at(-1)).toBe('1/1 complete: complete');
    expect(progressLines(notes)).toContain('0.5/1 running: building site');
  }, 120_000);
});

describe('npm run mcp (stdio)', () => {
  it('answers an SDK v2 client in 2026-07-28 and an SDK v1 client in 2025-11-25, with the same tools', async () => {
    const modern = await stdioClientV2(outDir);
    const legacy = await stdioClient(outDir);
    try {
      expect(modern.getNegotiatedProtocolVersion()).toBe(MODERN);
      const names = async (listed: { tools: { name: string }[] }) => listed.tools.map((tool) => tool.name).sort();
      expect(await names(await modern.listTools())).toEqual([
        'garments.get_record',
        'garments.list',
        'garments.list_revisions',
        'garments.search',
      ]);
      expect(await names(await legacy.client.listTools())).toEqual([
        'garments.get_record',
        'garments.list',
        'garments.list_revisions',
        'garments.search',
      ]);
      const found = (await modern.callTool({ name: 'garments.search', arguments: { query: 'fleece' } })) as CallToolResult;
      expect((found.structuredContent as { total: number }).total).toBeGreaterThan(0);
    } finally {
      await modern.close();
      await legacy.client.close();
    }
  }, 60_000);
});
