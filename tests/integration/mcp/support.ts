// Shared by the MCP tests: the SDK's own clients (v1: protocol 2025-11-25; v2: 2026-07-28) on
// either transport, and reading tool results.
import { Client as ClientV2, StreamableHTTPClientTransport as StreamableHTTPClientTransportV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { projectRoot } from '../../support/records.ts';
import { node } from '../../support/run.ts';

/** A client connected to `<serviceUrl>/mcp`, with the API key when given. */
export async function httpClient(serviceUrl: string, key?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(
    new URL('/mcp', serviceUrl),
    key === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${key}` } } },
  );
  const client = new Client({ name: 'garment-press-tests', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** An SDK v2 client (protocol 2026-07-28) connected to `<serviceUrl>/mcp`; `wire()` gives every response body it has read. */
export async function httpClientV2(serviceUrl: string, key?: string): Promise<{ client: ClientV2; wire: () => Promise<string[]> }> {
  const bodies: Promise<string>[] = [];
  const recording = async (url: string | URL, init?: RequestInit) => {
    const response = await fetch(url, init);
    // A body still streaming when the client closes is cut off: an empty one, not an unhandled rejection.
    bodies.push(
      response
        .clone()
        .text()
        .catch(() => ''),
    );
    return response;
  };
  const transport = new StreamableHTTPClientTransportV2(new URL('/mcp', serviceUrl), {
    fetch: recording,
    ...(key === undefined ? {} : { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  });
  const client = new ClientV2({ name: 'garment-press-tests', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  return { client, wire: () => Promise.all(bodies) };
}

/** An SDK v2 client that starts `node src/cli/mcp.ts --dir <dir>` and talks to it on stdio. */
export async function stdioClientV2(dir: string): Promise<ClientV2> {
  const transport = new StdioClientTransportV2({
    command: node,
    args: [path.join(projectRoot, 'src/cli/mcp.ts'), '--dir', dir],
    cwd: projectRoot,
  });
  const client = new ClientV2({ name: 'garment-press-tests', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  return client;
}

/** A client that starts `node src/cli/mcp.ts --dir <dir>` (what `npm run -s mcp` runs) and talks to it on stdio. */
export async function stdioClient(dir: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: node,
    args: [path.join(projectRoot, 'src/cli/mcp.ts'), '--dir', dir],
    cwd: projectRoot,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'garment-press-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** A tool error's body: `{ code, message, problems }`. */
export interface ToolErrorBody {
  code: string;
  message: string;
  problems: { pointer: string; message: string }[];
}

/** The error a tool result carries; fails when the result is not an error. */
export function toolErrorOf(result: CallToolResult): ToolErrorBody {
  if (result.isError !== true) throw new Error(`expected a tool error, got ${JSON.stringify(result).slice(0, 400)}`);
  const [content] = result.content;
  if (content?.type !== 'text') throw new Error('a tool error without text');
  return (JSON.parse(content.text) as { error: ToolErrorBody }).error;
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const [content] = result.content;
  if (content?.type !== 'text') throw new Error(`expected text content, got ${JSON.stringify(result).slice(0, 400)}`);
  return content.text;
}

/** Calls a tool; the SDK validates structured content against the tool's output schema. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>, timeoutMs = 60_000): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs })) as CallToolResult;
}

/** What progress notifications said, each as "<progress>/<total> <message>". */
export function progressLines(notes: Progress[]): string[] {
  return notes.map((note) => `${note.progress}/${note.total} ${note.message}`);
}

/** Polls garments.get_generation (50 s waits, with a progressToken) until the task is done; returns every progress notification heard. */
export async function followWithProgress(client: Client, handle: string): Promise<Progress[]> {
  const notes: Progress[] = [];
  for (let polls = 0; ; polls++) {
    if (polls === 5) throw new Error(`${handle} was not done after ${polls} polls of 50 s`);
    const polled = (await client.callTool({ name: 'garments.get_generation', arguments: { handle, wait_seconds: 50 } }, undefined, {
      onprogress: (note) => notes.push(note),
      timeout: 90_000,
    })) as CallToolResult;
    if ((polled.structuredContent as { done: boolean }).done) return notes;
  }
}
