// The MCP servers an ACP client passes with session/new and session/load: the user configured them
// in their editor, so they join the user's own servers (no consent question, the sandbox as for any
// stdio server), after the servers of OpenDev's own settings; a client server of the same name wins.
import type { McpServer } from '@agentclientprotocol/sdk';
import type { LoadedMcpConfig } from '../core/mcp/mcp-config';
import type { McpServerEntry } from '../core/mcp/mcp-types';

export const CLIENT_SOURCE_FILE = '(the editor, over ACP)';

export function withClientServers(loaded: LoadedMcpConfig, servers: readonly McpServer[]): LoadedMcpConfig {
  if (servers.length === 0) return loaded;
  const client = servers.map(entryOf);
  const names = new Set(client.map((e) => e.name));
  return { servers: [...loaded.servers.filter((e) => !names.has(e.name)), ...client], warnings: loaded.warnings };
}

function entryOf(server: McpServer): McpServerEntry {
  const common = { name: server.name, source: 'user' as const, file: CLIENT_SOURCE_FILE, enabled: true };
  if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
    return { ...common, config: { type: server.type, url: server.url, headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])) } };
  }
  return { ...common, config: { command: server.command, args: server.args, env: Object.fromEntries(server.env.map((v) => [v.name, v.value])) } };
}
