// The local MCP server: the read-only tools and resources over a built site, on stdin and stdout.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startStdioServer } from '../lib/mcp/index.ts';
import { readCommandLine } from './command-line.ts';

const USAGE = `usage: npm run -s mcp [-- --dir dist]

An MCP server over stdio for a desktop MCP client: garments.search, garments.get_record and
garments.list, and every record's JSON and Markdown as resources, read from a built site
(npm run build). Publishing needs the service (npm run serve, /mcp with an API key).
Log lines go to stderr; stdout carries the protocol. See /docs/mcp/.

  --dir DIR    the built site (default dist)`;

const options = readCommandLine('mcp', USAGE, {
  options: { dir: { type: 'string', default: 'dist' }, help: { type: 'boolean', short: 'h' } },
}).values;
if (!existsSync(path.join(options.dir, 'records.json'))) {
  process.stderr.write(`mcp: ${options.dir} holds no built site (no records.json): run npm run build, or pass --dir\n`);
  process.exit(1);
}

await startStdioServer({ outDir: options.dir, log: (line) => process.stderr.write(`${line}\n`) });
process.stderr.write(`garment-press MCP server on stdio, reading ${path.resolve(options.dir)}\n`);
