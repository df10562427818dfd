// The MCP SDK's client, its transports and error types, in one bundle so its classes are one set
// (McpError is checked with instanceof): dist/vendor/mcp-sdk.js, loaded when the first MCP server
// starts (see scripts/lazy-bundles.mjs; reach it only through mcpSdk()).
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
