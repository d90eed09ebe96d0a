// The garment-press MCP server: the tools and the twins as resources, for one caller (anonymous,
// or an organization known by its API key). Tools are declared with hand-written JSON Schemas and
// their arguments checked by ajv, so a bad argument is a tool error naming its JSON pointer. One
// server serves both protocol eras: 2026-07-28 (server/discover, a _meta envelope per request) and
// 2025-11-25 (initialize), the SDK choosing per request or per connection.
import { ProtocolError, ProtocolErrorCode, Server, type Tool as ToolDefinition } from '@modelcontextprotocol/server';
import packageJson from '../../../package.json' with { type: 'json' };
import { SiteUnavailableError, type PublishedSite } from './published-site.ts';
import { listResources, listResourceTemplates, readResource } from './resources.ts';
import { argumentProblems, toolError, toolResult, type ProgressReport, type Tool } from './tool-call.ts';
import { isDatabaseUnavailable } from '../database/index.ts';
import { errorReport } from '../errors.ts';

/** Who is calling and what they may use. */
export interface GarmentsServerOptions {
  /** Every tool the server has; a caller without a key sees and calls only those open to anyone. */
  tools: Tool[];
  published: PublishedSite;
  /** The caller's organization; undefined for an anonymous caller. */
  organizationId: string | undefined;
  /** Where an unexpected failure is told in full (the caller gets a short error). */
  log: (line: string) => void;
}

const INSTRUCTIONS = [
  'garment-press publishes garment research records: a commerce projection (svc: prices, sizes, colours, stock) and a technical one (tech: fabric, construction, measurements) per garment, every fact tied to its claims and sources.',
  "Find records with garments.search (words and filters, as the site's search) or garments.list (browse), then read one with garments.get_record or as a resource (its JSON or Markdown address).",
  'With an API key, garments.publish submits a record and garments.get_generation follows the task to its end (send a progressToken to hear each stage).',
].join(' ');

/** A server for one caller; the SDK's serving entries connect it. */
export function createGarmentsServer(options: GarmentsServerOptions): Server {
  const { published, organizationId, log } = options;
  const server = new Server(
    { name: packageJson.name, title: 'garment-press', version: packageJson.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: INSTRUCTIONS,
      // The tools listed depend on the caller's key: no shared cache may hand one caller's list to another.
      cacheHints: { 'tools/list': { ttlMs: 0, cacheScope: 'private' } },
    },
  );
  const usable = (tool: Tool) => tool.access === 'anyone' || organizationId !== undefined;

  server.setRequestHandler('tools/list', () => ({
    tools: options.tools.filter(usable).map(
      (tool): ToolDefinition => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema as ToolDefinition['inputSchema'],
        outputSchema: tool.outputSchema as ToolDefinition['outputSchema'],
        annotations: { title: tool.title, ...tool.annotations },
      }),
    ),
  }));

  server.setRequestHandler('tools/call', async (request, context) => {
    const { name, arguments: args = {} } = request.params;
    const tool = options.tools.find((candidate) => candidate.name === name);
    if (tool === undefined)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool ${JSON.stringify(name.slice(0, 100))}; tools/list lists them`);
    if (!usable(tool)) {
      return toolResult(
        toolError('unauthorized', `${tool.name} needs an API key: connect with the header "Authorization: Bearer <key>" (see /docs/mcp/)`),
      );
    }
    const problems = argumentProblems(tool.inputSchema, args);
    if (problems.length > 0) return toolResult(toolError('invalid_argument', `the arguments of ${tool.name} are not valid`, problems));
    const progressToken = context.mcpReq._meta?.progressToken;
    // Only a caller that asked for progress (a progressToken) is sent any.
    const reportProgress =
      progressToken === undefined
        ? undefined
        : ({ progress, total, message }: ProgressReport) =>
            context.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total, message } });
    try {
      return toolResult(await tool.run(args, { signal: context.mcpReq.signal, organizationId, reportProgress }));
    } catch (error) {
      if (error instanceof SiteUnavailableError) return toolResult(toolError('site_unavailable', error.message));
      if (isDatabaseUnavailable(error)) {
        log(`mcp ${tool.name}: the database does not answer: ${errorReport(error)}`);
        return toolResult(toolError('database_unavailable', `${tool.name} could not reach the service's database; try again in a moment`));
      }
      log(`mcp ${tool.name}: internal error: ${errorReport(error)}`);
      return toolResult(
        toolError('internal_error', `${tool.name} failed on the server's side; try again, and tell the site's operator if it goes on`),
      );
    }
  });

  server.setRequestHandler('resources/list', (request) => listResources(published, request.params?.cursor));
  server.setRequestHandler('resources/templates/list', () => listResourceTemplates(published));
  server.setRequestHandler('resources/read', (request) => readResource(published, request.params.uri));
  return server;
}
