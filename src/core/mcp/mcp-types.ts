// The MCP contract between the client (hub, connections, lazy discovery) and the management
// surfaces (/mcp, `opendev mcp`, the VS Code "MCP Servers" view).
import * as z from 'zod';

const common = {
  /** Off: configured but never started and no tools offered. */
  enabled: z.boolean().optional(),
  /** One line for the prompt's server list (what the server is for). */
  description: z.string().optional(),
};

// This file's schemas are built on their first parse (z.lazy): a start-up that reads none of its records does not pay for them.
/** A server run as a child process speaking MCP over stdin/stdout. */
export const StdioServerSchema = z.lazy(() => z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  ...common,
}));

/** A server reached over Streamable HTTP (`sse`: the older HTTP+SSE transport, for servers that only speak it). */
export const HttpServerSchema = z.lazy(() => z.object({
  type: z.enum(['http', 'streamable-http', 'sse']).optional(),
  url: z.url(),
  headers: z.record(z.string(), z.string()).optional(),
  ...common,
}));

/** One entry of `mcp_servers` (settings.json) or `mcpServers` (.mcp.json, the format other agents use). */
export const McpServerConfigSchema = z.lazy(() => z.union([StdioServerSchema, HttpServerSchema]));
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

/** Where a server's entry was read: the user's settings, the project's, or the project's .mcp.json. */
export type McpConfigSource = 'user' | 'project' | 'mcp.json';

export interface McpServerEntry {
  name: string;
  config: McpServerConfig;
  source: McpConfigSource;
  /** The file it was read from. */
  file: string;
  enabled: boolean;
  /** The higher settings file whose `{ "enabled": … }` entry switched this server on or off, if any. */
  toggledIn?: string;
}

export type McpServerState = 'disabled' | 'stopped' | 'starting' | 'running' | 'restarting' | 'failed';

/**
 * Consent for a server the project defines (the user's own servers have none): `trusted`
 * remembered in the user's trust file, `allowed` for this session, `ask` asks before its first
 * start, `declined` the user said no this session.
 */
export type McpTrustState = 'trusted' | 'allowed' | 'ask' | 'declined';

/** One server as the management surfaces show it. */
export interface McpServerStatus {
  name: string;
  state: McpServerState;
  transport: 'stdio' | 'http' | 'sse';
  source: McpConfigSource;
  file: string;
  enabled: boolean;
  /** Known once the server has listed its tools. */
  toolCount?: number;
  /** The last failure (start, crash, list), for the user. */
  error?: string;
  /** Restarts after crashes since the session began. */
  restarts: number;
  /** The child process of a running stdio server. */
  pid?: number;
  /** Servers the project defines: whether they may start (absent for the user's own). */
  trust?: McpTrustState;
}

export interface McpToolInfo {
  /** The name the model calls: `mcp__<server>__<tool>`. */
  qualifiedName: string;
  server: string;
  /** The server's own name for it. */
  name: string;
  description: string;
  /** The cleaned schema in full when the one sent was too large (search_tools detail "full" shows it). */
  fullSchema?: Record<string, unknown>;
}

/**
 * A session's MCP servers. Servers start lazily (first search_tools, direct call, or an explicit
 * connect), restart on crash with backoff and stop with the session.
 */
export interface McpHubApi {
  list(): McpServerStatus[];
  /** Starts (or reconnects) a server and lists its tools. */
  connect(name: string): Promise<McpServerStatus>;
  disconnect(name: string): Promise<void>;
  /** The server's tools (connecting first when needed). */
  tools(name: string): Promise<McpToolInfo[]>;
  /** Connects, lists tools and pings: a health check the user can run. */
  test(name: string): Promise<{ ok: boolean; ms: number; toolCount: number; error?: string }>;
  /**
   * Remembers (true) or forgets (false) the user's trust in a server the project defines, for this
   * workspace and its definition as it is now; a message for the user.
   */
  setTrust(name: string, trusted: boolean): Promise<{ ok: boolean; message: string }>;
  /** Re-reads the configuration (after /mcp add|remove|enable|disable wrote it): new servers appear, removed or disabled ones stop. */
  reload(): Promise<void>;
  /** Called on every state change (for the VS Code view); returns the unsubscribe. */
  onDidChange(listener: () => void): () => void;
  dispose(): Promise<void>;
}
