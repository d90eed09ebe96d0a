// MCP at /mcp on the real publish service (`serve` as a process, real builds), driven by the SDK's
// own Client over Streamable HTTP on loopback, with a real HTTPS receiver for the completion event.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesOf } from '../../support/docs-examples.ts';
import { projectRoot } from '../../support/records.ts';
import { node } from '../../support/run.ts';
import { eventually, fingerprint, UUID, type Organization, type Receiver, type ServeProcess } from '../publish/support.ts';
import { SITE, SLUG, startServedSite, teeRevision, type ServedSite } from './served-site.ts';
import { callTool, httpClient, textOf, toolErrorOf } from './support.ts';

let site: ServedSite;
let recordsDir: string;
let outDir: string;
let receiver: Receiver;
let serve: ServeProcess;
let acme: Organization;
let other: Organization;
let client: Client;
let otherClient: Client;
let anonymous: Client;

beforeAll(async () => {
  site = await startServedSite('mcp-http-', ['Acme', 'Other']);
  ({ receiver, serve } = site);
  ({ recordsDir, outDir } = site.workspace);
  [acme, other] = site.organizations as [Organization, Organization];
  client = await httpClient(serve.url, acme.key);
  otherClient = await httpClient(serve.url, other.key);
  anonymous = await httpClient(serve.url);
}, 90_000);

afterAll(async () => {
  await Promise.all([client, otherClient, anonymous].map((connected) => connected?.close()));
  await site?.close();
});

/** The sample commerce record of the tee, changed: a new revision and a word no other record has. */
function changedTee(): Record<string, any> {
  const record = teeRevision('2026-11-24.1');
  record.page.summary.text = `${record.page.summary.text} Now also knitted in zephyrweave cotton.`;
  return record;
}

function toolNamed(tools: Tool[], name: string): Tool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`);
  return tool;
}

describe('/mcp with an API key', () => {
  it('lists the six tools with input and output schemas an agent can act on', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'garments.get_generation',
      'garments.get_record',
      'garments.list',
      'garments.list_revisions',
      'garments.publish',
      'garments.search',
    ]);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(100);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type, tool.name).toBe('object');
    }
    const publish = toolNamed(tools, 'garments.publish');
    expect(publish.inputSchema.required).toEqual(['record']);
    expect(Object.keys(publish.inputSchema.properties!)).toEqual(['record', 'callback_url', 'idempotency_key', 'wait_seconds']);
    expect(publish.outputSchema!.required).toEqual(['handle', 'status_url', 'replayed']);
    expect(Object.keys(publish.outputSchema!.properties!)).toEqual([
      'handle',
      'status_url',
      'replayed',
      'callback_url_warning',
      'generation',
    ]);
    expect(publish.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    const poll = toolNamed(tools, 'garments.get_generation');
    // A longer wait is capped, not refused.
    expect(poll.inputSchema.properties!.wait_seconds).toMatchObject({ type: 'number', minimum: 0 });
    expect(poll.inputSchema.properties!.wait_seconds).not.toHaveProperty('maximum');
    expect(poll.outputSchema!.required).toEqual([
      'handle',
      'resource_id',
      'status',
      'done',
      'progress',
      'stage',
      'page_url',
      'error',
      'problems',
      'superseded_by',
    ]);
    const search = toolNamed(tools, 'garments.search');
    expect(search.inputSchema.required).toEqual(['query']);
    expect(Object.keys((search.inputSchema.properties!.filters as { properties: object }).properties)).toEqual([
      'projection',
      'category',
      'brand',
      'manufacturer',
      'status',
      'decoration',
      'fabric',
      'construction',
      'fiber',
      'color',
      'size',
    ]);
    expect(toolNamed(tools, 'garments.get_record').inputSchema.properties!.format).toMatchObject({ enum: ['json', 'markdown'] });
    expect(toolNamed(tools, 'garments.list').outputSchema!.required).toEqual(['total', 'records', 'next_cursor']);
  });

  it('publishes a changed record: handle at once, long poll to complete, one signed event whose data is the poll byte for byte, and the change readable and findable', async () => {
    const published = await callTool(client, 'garments.publish', { record: changedTee(), callback_url: `${receiver.url}/hooks/mcp` });
    expect(published.isError).toBeFalsy();
    const { handle, status_url: statusUrl } = published.structuredContent as { handle: string; status_url: string };
    expect(handle).toMatch(UUID);
    expect(statusUrl).toBe(`/api/generations/${handle}`);

    let pollText = '';
    for (let polls = 0; ; polls++) {
      expect(polls).toBeLessThan(5);
      const polled = await callTool(client, 'garments.get_generation', { handle, wait_seconds: 50 });
      pollText = textOf(polled);
      expect(polled.structuredContent).toEqual(JSON.parse(pollText));
      if ((polled.structuredContent as { done: boolean }).done) break;
    }
    expect(JSON.parse(pollText)).toEqual({
      handle,
      resource_id: `${SLUG}/svc`,
      status: 'complete',
      done: true,
      progress: 1,
      stage: 'complete',
      page_url: `${SITE}garments/${SLUG}/svc/`,
      error: '',
      problems: [],
      superseded_by: null,
    });
    // The HTTP API's poll answers the same bytes.
    const httpPoll = await fetch(`${serve.url}${statusUrl}`, { headers: { Authorization: `Bearer ${acme.key}` } });
    expect(await httpPoll.text()).toBe(pollText);

    const [delivery] = await eventually(
      () => (receiver.acceptedFor(handle).length > 0 ? receiver.acceptedFor(handle) : undefined),
      15_000,
      'the completion event',
    );
    expect(delivery!.event).toMatchObject({ event: 'publish.completed', handle, tool: 'garments.publish', organizationId: acme.id });
    expect(delivery!.path).toBe('/hooks/mcp');
    const rawData = delivery!.rawBody.slice(delivery!.rawBody.indexOf('"data":') + '"data":'.length, -1);
    expect(rawData).toBe(pollText);

    const json = await callTool(client, 'garments.get_record', { slug: SLUG, projection: 'svc' });
    const twin = json.structuredContent as { url: string; mime_type: string; text: string; page_url: string };
    expect(twin).toMatchObject({
      url: `${SITE}garments/${SLUG}/svc.json`,
      mime_type: 'application/json',
      page_url: `${SITE}garments/${SLUG}/svc/`,
    });
    expect(JSON.parse(twin.text)).toMatchObject({ record_revision: '2026-11-24.1', links: { mcp_docs: `${SITE}docs/mcp/` } });
    expect(textOf(json)).toBe(twin.text);
    expect(twin.text).toBe(readFileSync(path.join(outDir, `garments/${SLUG}/svc.json`), 'utf8'));
    const markdown = await callTool(client, 'garments.get_record', { slug: SLUG, projection: 'svc', format: 'markdown' });
    expect(textOf(markdown)).toContain('zephyrweave cotton');

    const resource = await client.readResource({ uri: twin.url });
    expect(resource.contents).toEqual([{ uri: twin.url, mimeType: 'application/json', text: twin.text }]);
    const markdownResource = await client.readResource({ uri: `${SITE}garments/${SLUG}/svc.md` });
    expect(markdownResource.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: textOf(markdown) });

    const found = await callTool(client, 'garments.search', { query: 'zephyrweave' });
    expect(found.structuredContent).toMatchObject({
      query: 'zephyrweave',
      searched: 'zephyrweave',
      corrected: false,
      total: 1,
      garments: [
        {
          slug: SLUG,
          title: 'Ridgeline RK-6210 Heavyweight Tee',
          url: `${SITE}garments/${SLUG}/`,
          projections: [
            { code: 'svc', name: 'Commerce', url: `${SITE}garments/${SLUG}/svc/`, status: 'Complete' },
            { code: 'tech', name: 'Technical', url: `${SITE}garments/${SLUG}/tech/`, status: 'Complete' },
          ],
        },
      ],
      search_url: `${SITE}search/?q=zephyrweave`,
    });
    expect((found.structuredContent as { garments: { excerpt: string }[] }).garments[0]!.excerpt).toContain('zephyrweave cotton');
    // The rebuilt site's words know the new word: a letter dropped finds it, as on the search page.
    const misspelt = await callTool(client, 'garments.search', { query: 'zephyrwave' });
    expect(misspelt.structuredContent).toMatchObject({
      query: 'zephyrwave',
      searched: 'zephyrweave',
      corrected: true,
      total: 1,
      garments: [{ slug: SLUG }],
    });
  }, 120_000);

  it('refuses an invalid record at once with every problem and its pointer, publishing nothing', async () => {
    const recordsBefore = fingerprint(recordsDir);
    const record = changedTee();
    record.projection = 'sideways';
    (record as { slug: string }).slug = 'Not A Slug';
    const error = toolErrorOf(await callTool(client, 'garments.publish', { record }));
    expect(error.code).toBe('invalid_record');
    expect(error.message).toContain('nothing was published');
    expect(error.problems).toEqual(
      expect.arrayContaining([
        { pointer: '/record/projection', message: 'expected one of "svc", "tech"; got "sideways"' },
        { pointer: '/record/slug', message: expect.stringContaining('must match') },
      ]),
    );
    const text = toolErrorOf(await callTool(client, 'garments.publish', { record: '{"schema_version": "garment-access/2.4.0",' }));
    expect(text.problems).toEqual([
      { pointer: '/record', message: 'invalid JSON at line 1, column 43: expected a double-quoted property name, got end of file' },
    ]);
    const missing = toolErrorOf(await callTool(client, 'garments.publish', { callback_url: 'https://hooks.example.com/' }));
    expect(missing).toMatchObject({
      code: 'invalid_argument',
      problems: [{ pointer: '/record', message: 'missing required argument "record"' }],
    });
    const refusedCallback = toolErrorOf(
      await callTool(client, 'garments.publish', { record: changedTee(), callback_url: 'http://hooks.example.com/' }),
    );
    expect(refusedCallback).toMatchObject({
      code: 'callback_url_refused',
      problems: [{ pointer: '/callback_url', message: 'callback_url refused: scheme must be https, got http' }],
    });
    expect(fingerprint(recordsDir)).toEqual(recordsBefore);
  });

  it('publishes once for a repeated idempotency_key, refuses the key for another record, and checks its form', async () => {
    const key = `retry-${Date.now()}`;
    const first = await callTool(client, 'garments.publish', { record: changedTee(), idempotency_key: key });
    const { handle, replayed } = first.structuredContent as { handle: string; replayed: boolean };
    expect(replayed).toBe(false);
    // A client that lost the answer and calls again gets the same task, not a second publish.
    expect((await callTool(client, 'garments.publish', { record: changedTee(), idempotency_key: key })).structuredContent).toEqual({
      handle,
      status_url: `/api/generations/${handle}`,
      replayed: true,
    });
    const another = changedTee();
    another.record_revision = '2026-11-24.2';
    expect(toolErrorOf(await callTool(client, 'garments.publish', { record: another, idempotency_key: key }))).toMatchObject({
      code: 'idempotency_key_reused',
      message: expect.stringContaining(handle),
      problems: [{ pointer: '/idempotency_key' }],
    });
    expect(toolErrorOf(await callTool(client, 'garments.publish', { record: changedTee(), idempotency_key: 'has space' }))).toMatchObject({
      code: 'invalid_argument',
      problems: [{ pointer: '/idempotency_key' }],
    });
  });

  it('accepts a callback_url whose host does not resolve now, saying so in callback_url_warning', async () => {
    const published = await callTool(client, 'garments.publish', {
      record: changedTee(),
      callback_url: 'https://hooks.garment-press.invalid/mcp',
    });
    expect(published.isError).toBeFalsy();
    expect(published.structuredContent).toMatchObject({
      replayed: false,
      callback_url_warning: expect.stringMatching(
        /^could not resolve host hooks\.garment-press\.invalid \(\w+\) now; each delivery looks it up again/,
      ),
    });
  });

  it("answers an unknown handle, another organization's handle and a wait out of range with a tool error", async () => {
    const unknown = toolErrorOf(await callTool(client, 'garments.get_generation', { handle: '6f1c2b0e-3a4d-4e5f-8a9b-0c1d2e3f4a5b' }));
    expect(unknown).toMatchObject({ code: 'not_found', problems: [{ pointer: '/handle' }] });

    const published = await callTool(client, 'garments.publish', { record: changedTee() });
    const { handle } = published.structuredContent as { handle: string };
    // Acme's garment: another organization may not publish it, and is not told whose it is.
    expect(toolErrorOf(await callTool(otherClient, 'garments.publish', { record: changedTee() }))).toMatchObject({
      code: 'garment_owned_by_another',
      message: expect.not.stringContaining('Acme'),
      problems: [{ pointer: '/record/slug' }],
    });
    const foreign = toolErrorOf(await callTool(otherClient, 'garments.get_generation', { handle }));
    // Exactly what an unknown handle gets: the other organization learns nothing.
    expect(foreign).toEqual({
      ...unknown,
      message: unknown.message.replace('6f1c2b0e-3a4d-4e5f-8a9b-0c1d2e3f4a5b', handle),
      problems: [{ pointer: '/handle', message: unknown.problems[0]!.message.replace('6f1c2b0e-3a4d-4e5f-8a9b-0c1d2e3f4a5b', handle) }],
    });

    for (const wait of [-1, 'soon']) {
      const error = toolErrorOf(await callTool(client, 'garments.get_generation', { handle, wait_seconds: wait }));
      expect(error.code).toBe('invalid_argument');
      expect(error.problems).toEqual([
        { pointer: '/wait_seconds', message: expect.stringMatching(/^expected (a number of at least 0|number); got/) },
      ]);
    }
    // Upper case is the same UUID.
    const ended = await callTool(client, 'garments.get_generation', { handle: handle.toUpperCase(), wait_seconds: 50 });
    expect((ended.structuredContent as { handle: string }).handle).toBe(handle);
  }, 90_000);

  it('lists records a page at a time, narrowed by brand and projection', async () => {
    const first = (await callTool(client, 'garments.list', { limit: 4 })).structuredContent as {
      total: number;
      records: { slug: string; projection: string }[];
      next_cursor: string;
    };
    expect(first.total).toBe(6);
    expect(first.records).toHaveLength(4);
    const second = (await callTool(client, 'garments.list', { limit: 4, cursor: first.next_cursor })).structuredContent as typeof first;
    expect(second.records).toHaveLength(2);
    expect(second.next_cursor).toBeNull();
    const all = [...first.records, ...second.records].map((record) => `${record.slug}/${record.projection}`);
    expect(new Set(all).size).toBe(6);
    const ridgeline = (await callTool(client, 'garments.list', { brand: 'ridgeline', projection: 'tech' }))
      .structuredContent as typeof first;
    expect(ridgeline.records.map((record) => `${record.slug}/${record.projection}`)).toEqual([`${SLUG}/tech`]);
    expect(toolErrorOf(await callTool(client, 'garments.list', { cursor: 'not-a-cursor' }))).toMatchObject({
      code: 'invalid_argument',
      problems: [{ pointer: '/cursor' }],
    });
  });

  it('lists every twin and every revision as a resource with its media type, and says a resource that is not there is not found', async () => {
    const { resources, nextCursor } = await client.listResources();
    expect(nextCursor).toBeUndefined();
    const revisions = resources.filter((resource) => resource.uri.includes('/revisions/'));
    const twins = resources.filter((resource) => !resource.uri.includes('/revisions/'));
    expect(twins).toHaveLength(12);
    expect(twins.filter((resource) => resource.mimeType === 'application/json')).toHaveLength(6);
    expect(twins.filter((resource) => resource.mimeType === 'text/markdown')).toHaveLength(6);
    expect(revisions.length).toBeGreaterThan(0);
    expect(revisions.every((resource) => resource.mimeType === 'application/json')).toBe(true);
    expect(revisions).toContainEqual(
      expect.objectContaining({ uri: `${SITE}garments/ridgeline-rk6210-heavyweight-tee/svc/revisions/1.json` }),
    );
    expect(resources).toContainEqual(expect.objectContaining({ uri: `${SITE}garments/${SLUG}/tech.md`, name: `${SLUG}/tech.md` }));
    // -32602 with the uri on every protocol version (2026-07-28 asks for it; -32002 is gone).
    await expect(client.readResource({ uri: `${SITE}garments/no-such-tee/svc.json` })).rejects.toMatchObject({
      code: -32602,
      data: { uri: `${SITE}garments/no-such-tee/svc.json` },
    });
    await expect(client.readResource({ uri: `https://elsewhere.example/garments/${SLUG}/svc.json` })).rejects.toMatchObject({
      code: -32602,
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      `${SITE}garments/{slug}/{projection}.json`,
      `${SITE}garments/{slug}/{projection}.md`,
      `${SITE}garments/{slug}/{projection}/revisions/{number}.json`,
    ]);
  });
});

describe('/docs/mcp/', () => {
  it('publishes a worked example that runs against the service as written: tools, search, a record read, a publish followed to its end', async () => {
    const examples = examplesOf(readFileSync(path.join(outDir, 'docs/mcp/index.html'), 'utf8'));
    // Beside node_modules, so the example's bare imports of the SDK resolve as in a reader's project.
    const scratch = mkdtempSync(path.join(projectRoot, 'node_modules/.cache/mcp-example-'));
    try {
      writeFileSync(path.join(scratch, 'mcp-example.mjs'), examples.get('mcp-example.mjs')!);
      const record = changedTee();
      (record as { record_revision: string }).record_revision = '2026-11-24.2';
      // Sent as text, the record is published with its bytes as written: the escape stays an escape.
      writeFileSync(
        path.join(scratch, 'record.json'),
        JSON.stringify(record, null, 2).replace('zephyrweave cotton.', 'zephyrweave cotton, caf\\u00e9 ready.'),
      );
      const { stdout } = await promisify(execFile)(node, ['mcp-example.mjs', 'record.json'], {
        cwd: scratch,
        env: { ...process.env, GARMENT_PRESS_URL: serve.url, GARMENT_PRESS_KEY: acme.key },
        timeout: 90_000,
      });
      expect(stdout).toContain(
        'protocol: 2026-07-28\ntools: garments.search, garments.get_record, garments.list, garments.list_revisions, garments.publish, garments.get_generation\n',
      );
      expect(stdout).toContain(
        `garment: Harbor & Pike HP-450 Brushed Fleece Pullover Hoodie (From $27.18; Sizes XS–2XL; Three-end fleece, 80% cotton, 20% polyester; 9 oz/yd², 305 g/m² (sources disagree: 9 or 8.5 oz/yd²)) ${SITE}garments/harbor-pike-hp450-fleece-pullover-hoodie/\n`,
      );
      expect(stdout).toContain(`  Technical, Complete with gaps: ${SITE}garments/harbor-pike-hp450-fleece-pullover-hoodie/tech/\n`);
      expect(stdout).toContain('projection: "tech"\n');
      expect(stdout).toMatch(/\nhandle: [0-9a-f-]{36}\n/);
      // The long poll's progress: each stage as the server told it, the last one at the end.
      expect(stdout).toContain('  0.5: running: building site\n  1: complete: complete\n');
      expect(stdout.trimEnd().endsWith(`complete: ${SITE}garments/${SLUG}/svc/`)).toBe(true);
      const published = readFileSync(path.join(outDir, `garments/${SLUG}/svc.json`), 'utf8');
      expect(published).toContain('zephyrweave cotton, caf\\u00e9 ready.');
      expect(published).toContain('"record_revision": "2026-11-24.2"');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
    expect(JSON.parse(examples.get('mcp-http.json')!).mcpServers['garment-press']).toMatchObject({ type: 'http', url: `${SITE}mcp` });
    expect(JSON.parse(examples.get('mcp-stdio.json')!).mcpServers['garment-press-local'].args).toEqual([
      'run',
      '-s',
      '--prefix',
      '/path/to/garment-press',
      'mcp',
      '--',
      '--dir',
      'dist',
    ]);
  }, 120_000);
});

describe('/mcp without a key, or with a wrong one', () => {
  it('gives an anonymous client the read-only tools, and a clear error for the others', async () => {
    const { tools } = await anonymous.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'garments.get_record',
      'garments.list',
      'garments.list_revisions',
      'garments.search',
    ]);
    expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    const found = await callTool(anonymous, 'garments.search', { query: 'fleece', filters: { projection: ['Technical'] } });
    expect((found.structuredContent as { garments: { slug: string }[] }).garments.map((garment) => garment.slug)).toEqual([
      'harbor-pike-hp450-fleece-pullover-hoodie',
      SLUG,
    ]);
    const refused = toolErrorOf(await callTool(anonymous, 'garments.publish', { record: changedTee() }));
    expect(refused.code).toBe('unauthorized');
    expect(refused.message).toContain('Authorization: Bearer');
  });

  it('refuses a wrong key with 401 before any tool, rather than treating the caller as anonymous', async () => {
    await expect(httpClient(serve.url, `${acme.key}x`)).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('invalid_api_key'),
    });
    const answer = await fetch(`${serve.url}/mcp`, {
      method: 'POST',
      headers: { Authorization: 'Bearer nope', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('invalid_token');
    const basic = await fetch(`${serve.url}/mcp`, {
      method: 'POST',
      headers: { Authorization: 'Basic eDp5', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(basic.status).toBe(401);
    expect((await basic.json()).error.code).toBe('unauthorized');
  });

  it("answers GET with 405 (no sessions) and refuses a request from another origin's page", async () => {
    expect((await fetch(`${serve.url}/mcp`)).status).toBe(405);
    const crossOrigin = await fetch(`${serve.url}/mcp`, {
      method: 'POST',
      headers: { Origin: 'https://evil.example', 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(crossOrigin.status).toBe(403);
  });

  it('refuses a DNS-rebinding page (its own name in Host and Origin) and answers the site host and loopback names', async () => {
    const port = new URL(serve.url).port;
    const rebinding = await listToolsWith({ Host: `rebind.attacker.example:${port}`, Origin: `http://rebind.attacker.example:${port}` });
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body).error).toMatchObject({ code: 'origin_refused' });
    expect(rebinding.body).not.toContain('garments.search');
    // Without Origin (a script, not a page), the Host alone names a service this is not.
    const rebindingHost = await listToolsWith({ Host: `rebind.attacker.example:${port}` });
    expect(rebindingHost.status).toBe(403);
    expect(JSON.parse(rebindingHost.body).error).toMatchObject({ code: 'host_refused' });

    for (const headers of [
      { Host: `127.0.0.1:${port}`, Origin: `http://127.0.0.1:${port}` },
      { Host: `localhost:${port}`, Origin: `http://localhost:${port}` },
      { Host: 'garments.example', Origin: 'https://garments.example' },
    ]) {
      const answer = await listToolsWith(headers);
      expect(answer.status, JSON.stringify(headers)).toBe(200);
      expect(answer.body).toContain('garments.search');
    }
    // And a real client on 127.0.0.1 (Host 127.0.0.1:<port>, no Origin) lists the tools.
    expect((await anonymous.listTools()).tools.length).toBe(4);
  });
});

/** A tools/list POST to /mcp with the given Host and Origin (fetch cannot set Host), as a 2025-11-25 client sends it after initialize. */
function listToolsWith(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${serve.url}/mcp`,
      {
        method: 'POST',
        headers: {
          ...headers,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2025-11-25',
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
