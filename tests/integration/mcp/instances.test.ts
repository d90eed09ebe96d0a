// MCP progress across instances (issue 33): a client of instance B follows a publish that instance A
// builds (two `serve` processes on one PostgreSQL database) and hears each stage A reaches, through
// PostgreSQL's LISTEN/NOTIFY, to the terminal one; with the SDK's v2 and v1 clients alike. Health
// on PostgreSQL keeps the OpenAPI document.
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_PATH } from '../../../src/lib/site/urls.ts';
import { contractOf } from '../../support/openapi-contract.ts';
import { freshPostgresDatabase } from '../../support/postgres.ts';
import { call, eventually, type Organization, type ServeProcess } from '../publish/support.ts';
import { startServedSite, teeRevision, type ServedSite } from './served-site.ts';
import { followWithProgress, httpClient, httpClientV2, progressLines } from './support.ts';

let site: ServedSite;
let builder: ServeProcess;
let follower: ServeProcess;
let acme: Organization;

beforeAll(async () => {
  site = await startServedSite('mcp-instances-', ['Acme'], { databaseUrl: await freshPostgresDatabase() });
  [acme] = site.organizations as [Organization];
  builder = site.serve;
  // A takes the build lease before B starts, so every build here is A's.
  await eventually(
    async () => ((await call(builder.url, '/api/health')).json().build_lease?.holder === 'a' ? true : undefined),
    20_000,
    'instance a to hold the build lease',
  );
  follower = await site.startInstance('b');
  expect((await call(follower.url, '/api/health')).json().build_lease).toEqual({ holder: 'a', held_here: false });
}, 120_000);

afterAll(() => site?.close());

/** Fails unless A built the task (its log says so, B's does not) and the notes told its build and its end. */
function expectHeardABuild(handle: string, notes: Progress[]): void {
  expect(builder.output()).toContain(`task ${handle} running: building site`);
  expect(follower.output()).not.toContain(`task ${handle} running: building`);
  expect(progressLines(notes)).toContain('0.5/1 running: building site');
  expect(progressLines(notes).at(-1)).toBe('1/1 complete: complete');
}

describe('a client of instance B following a publish instance A builds', () => {
  it('an SDK v2 client (2026-07-28) that publishes and waits hears A building the site, then complete', async () => {
    const { client } = await httpClientV2(follower.url, acme.key);
    try {
      const notes: Progress[] = [];
      const published = (await client.callTool(
        { name: 'garments.publish', arguments: { record: teeRevision('2026-11-28.21'), wait_seconds: 50 } },
        { onprogress: (note) => notes.push(note), timeout: 90_000 },
      )) as CallToolResult;
      const { handle, generation } = published.structuredContent as { handle: string; generation: { status: string } };
      expect(generation.status).toBe('complete');
      expectHeardABuild(handle, notes);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('an SDK v1 client (2025-11-25) polling get_generation with a progressToken hears the same', async () => {
    const client = await httpClient(follower.url, acme.key);
    try {
      const published = (await client.callTool({
        name: 'garments.publish',
        arguments: { record: teeRevision('2026-11-28.22') },
      })) as CallToolResult;
      const { handle } = published.structuredContent as { handle: string };
      expectHeardABuild(handle, await followWithProgress(client, handle));
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('GET /api/health on PostgreSQL', () => {
  it('keeps the OpenAPI document on the builder and the follower', async () => {
    const contract = contractOf((await call(builder.url, '/openapi.json')).json(), SCHEMA_PATH);
    const healthOf = async (instance: ServeProcess, status: number) => {
      const answer = await call(instance.url, '/api/health');
      expect(answer.status, answer.text).toBe(status);
      expect(contract.responseProblems('GET', '/api/health', { status, headers: answer.headers, body: answer.text })).toEqual([]);
      return answer.json();
    };
    expect(await healthOf(builder, 200)).toMatchObject({
      status: 'ok',
      instance: 'a',
      database: { kind: 'postgresql', answers: true },
      build_lease: { holder: 'a', held_here: true },
      databases: [],
      disk: { state: 'ok' },
    });
    expect(await healthOf(follower, 200)).toMatchObject({ instance: 'b', build_lease: { holder: 'a', held_here: false } });
  });
});
