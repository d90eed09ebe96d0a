// Slow and oversized request bodies (issue 34 item 5): refused before reading, or cut off, on /api/ and /mcp alike.
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PublishService, startPublishService } from '../../../src/lib/service/index.ts';
import { type ServiceWorkspace, serviceWorkspace } from '../publish/support.ts';

let workspace: ServiceWorkspace;
let service: PublishService;
const LIMIT = 100_000;

/**
 * Writes `head` (the request line and headers) and then `body` on a raw connection, and resolves
 * with everything the server sent once it closes the connection.
 */
function exchange(head: string, body = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(service.url);
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(`${head}\r\n\r\n${body}`));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  workspace = await serviceWorkspace('faults-bodies-', ['Acme']);
  service = await startPublishService({
    port: 0,
    recordsDir: workspace.recordsDir,
    outDir: workspace.outDir,
    dataDir: workspace.dataDir,
    maxBodyBytes: LIMIT,
    bodyTimeoutMs: 400,
    buildSite: async () => ({ ok: true, output: '', seconds: 0 }),
    log: () => {},
  });
});
afterAll(async () => {
  await service?.close({ graceMs: 0 });
  rmSync(workspace.work, { recursive: true, force: true });
});

const targets = [
  { path: '/api/publish', key: true },
  { path: '/api/publish', key: false },
  { path: '/mcp', key: false },
];

describe('a request body over the limit', () => {
  it.each(targets)('is refused with 413 instead of 100 Continue on $path (key: $key), none of it read', async ({ path, key }) => {
    const authorization = key ? `\r\nAuthorization: Bearer ${workspace.organizations[0]!.key}` : '';
    // Over the limit but under twice it, as issue 34's 6,000,000 bytes were to the 5 MiB limit.
    const answer = await exchange(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nExpect: 100-continue\r\nContent-Length: ${LIMIT * 1.5}${authorization}`,
    );
    expect(answer).not.toContain('100 Continue');
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"payload_too_large"');
  });
});

describe('a body sent too slowly', () => {
  it.each(targets)('is cut off with 408 once the body timeout passes on $path (key: $key)', async ({ path, key }) => {
    const authorization = key ? `\r\nAuthorization: Bearer ${workspace.organizations[0]!.key}` : '';
    // One byte of ten, then nothing: the connection is held only until the body timeout.
    const answer = await exchange(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 10${authorization}`,
      '{',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });
});
