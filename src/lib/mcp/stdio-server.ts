// The local MCP server over stdio: the read-only tools and the twins as resources, over a site
// built into a folder, for a desktop MCP client that starts it as a command. A client of protocol
// 2026-07-28 (server/discover) or of 2025-11-25 (initialize) is answered in its own version.
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { openPublishedSite } from './published-site.ts';
import { readTools } from './read-tools.ts';
import { createGarmentsServer } from './server.ts';
import { openSiteSearch } from './site-search.ts';

/** Serves the site built into `outDir` on stdin and stdout until stdin ends. */
export async function startStdioServer(options: { outDir: string; log: (line: string) => void }): Promise<void> {
  const published = openPublishedSite(options.outDir);
  const search = openSiteSearch(options.outDir);
  const tools = readTools({ published, search });
  const served = serveStdio(() => createGarmentsServer({ tools, published, organizationId: undefined, log: options.log }), {
    onerror: (error) => options.log(`mcp: ${error.message}`),
  });
  // The client ends the session by closing stdin; the search's index server would keep the process up.
  process.stdin.once('end', () => void served.close().finally(() => search.close()));
}
