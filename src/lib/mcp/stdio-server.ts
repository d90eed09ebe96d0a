// The local MCP server over stdio: the read-only tools and the twins as resources, over a site
// built into a folder, for a desktop MCP client that starts it as a command.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { openPublishedSite } from './published-site.ts';
import { readTools } from './read-tools.ts';
import { createGarmentsServer } from './server.ts';
import { openSiteSearch } from './site-search.ts';

/** Serves the site built into `outDir` on stdin and stdout until stdin ends; resolves once connected. */
export async function startStdioServer(options: { outDir: string; log: (line: string) => void }): Promise<void> {
  const published = openPublishedSite(options.outDir);
  const search = openSiteSearch(options.outDir);
  const server = createGarmentsServer({ tools: readTools({ published, search }), published, organizationId: undefined, log: options.log });
  server.onclose = () => void search.close();
  // The client ends the session by closing stdin; the search's index server would keep the process up.
  process.stdin.once('end', () => void server.close());
  await server.connect(new StdioServerTransport());
}
