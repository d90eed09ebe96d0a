// MCP for garment-press: the tools (search, read, list; publish and follow with a key) and the
// twins as resources, at /mcp on the publish service and over stdio for a built site.
export { createMcpEndpoint, MCP_PATH } from './http-endpoint.ts';
export type { McpEndpoint, McpEndpointOptions } from './http-endpoint.ts';
export { startStdioServer } from './stdio-server.ts';
