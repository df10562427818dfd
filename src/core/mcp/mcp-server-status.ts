// One configured server as the management surfaces show it (McpServerStatus): from its entry, its
// connection when it has one, and, for a server the project defines, whether it may start.
import type { McpConnection } from './mcp-connection';
import { transportKind } from './mcp-transport';
import type { McpServerEntry, McpServerStatus, McpTrustState } from './mcp-types';

/** `connection`: undefined for a server nothing has started (or a disabled one). */
export function serverStatus(entry: McpServerEntry, connection: McpConnection | undefined, trust: McpTrustState | undefined): McpServerStatus {
  const toolCount = connection?.tools?.length;
  return {
    name: entry.name,
    state: entry.enabled ? (connection?.state ?? 'stopped') : 'disabled',
    transport: transportKind(entry.config),
    source: entry.source,
    file: entry.file,
    enabled: entry.enabled,
    ...(toolCount !== undefined ? { toolCount } : {}),
    ...(connection?.error ? { error: connection.error } : {}),
    restarts: connection?.restarts ?? 0,
    ...(connection?.pid !== undefined ? { pid: connection.pid } : {}),
    ...(trust ? { trust } : {}),
  };
}
