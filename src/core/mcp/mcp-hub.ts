// A session's MCP servers (McpHubApi). Nothing starts with the session: a server starts on the
// first search_tools, a direct call of one of its tools (the registry's resolver), or an explicit
// connect. Its tools then join the session's registry as deferred tools, whose schemas reach the
// model only once discovered. Disabled servers offer nothing; dispose() stops every server.
import { join } from 'node:path';
import type { ToolRegistry } from '../tools/registry';
import { loadMcpConfig, type LoadedMcpConfig } from './mcp-config';
import { McpCallError } from './mcp-call-error';
import { McpConnection, type McpServerTool, type McpTimeouts } from './mcp-connection';
import { transportKind } from './mcp-transport';
import { qualifiedToolName, serverOfToolName } from './mcp-names';
import { mcpText } from './mcp-texts';
import { createMcpTool } from './mcp-tool';
import type { McpHubApi, McpServerEntry, McpServerStatus, McpToolInfo } from './mcp-types';
import { createSearchToolsTool, SEARCH_TOOLS_NAME } from './search-tools-tool';
import { unavailableTool } from './unavailable-tool';

/** A server's tool names listed in an "unknown tool" answer (search_tools finds the rest). */
const MAX_NAMES_SHOWN = 20;

export interface McpHubOptions {
  registry: ToolRegistry;
  /** Where stdio servers run, and whose .mcp.json and .opendev/settings.json are read. */
  workspaceRoot: string;
  /** OPENDEV_HOME, whose settings.json is the user layer. */
  home: string;
  /** The session's scratch folder: images and audio MCP tools return are saved under it. */
  scratchDir?: string;
  /** The configuration; default the three files (read again by reload()). */
  load?: () => LoadedMcpConfig;
  /** Every tool's schema in every request, servers started up front: only to measure what lazy discovery saves. */
  eager?: boolean;
  timeouts?: Partial<McpTimeouts>;
  /** Configuration problems (bad files, bad entries), for the user. */
  onWarning?: (message: string) => void;
}

export class McpHub implements McpHubApi {
  private entries = new Map<string, McpServerEntry>();
  private readonly connections = new Map<string, McpConnection>();
  /** The qualified names each server has in the registry, with what the model is told about them. */
  private readonly registered = new Map<string, Map<string, McpToolInfo>>();
  private readonly listeners = new Set<() => void>();
  /** One-shot stand-ins registered for calls that could not be resolved (they give way to real tools). */
  private readonly standIns = new Set<string>();
  private lastWarnings: string[] = [];
  private disposed = false;

  constructor(private readonly options: McpHubOptions) {
    this.apply(this.read());
    options.registry.addResolver((name, signal) => this.resolveTool(name, signal));
  }

  /** Starts every enabled server and waits for their tools (eager mode). */
  async startAll(): Promise<void> {
    await this.startServers();
  }

  /** The servers as configured (disabled ones too), in configuration order: the prompt lists the enabled ones. */
  servers(): McpServerEntry[] {
    return [...this.entries.values()];
  }

  /** The configuration problems of the last (re)load. */
  warnings(): readonly string[] {
    return this.lastWarnings;
  }

  list(): McpServerStatus[] {
    return this.servers().map((entry) => this.status(entry.name));
  }

  async connect(name: string): Promise<McpServerStatus> {
    const connection = this.connection(name);
    await connection.connect().catch(() => undefined); // the status carries the failure
    return this.status(name);
  }

  async disconnect(name: string): Promise<void> {
    this.entry(name);
    await this.connections.get(name)?.close();
  }

  async tools(name: string): Promise<McpToolInfo[]> {
    const connection = this.connection(name);
    await connection.connect().catch(() => undefined);
    if (connection.state !== 'running') throw new Error(`MCP server "${name}" is not running: ${connection.error ?? connection.state}`);
    return [...(this.registered.get(name)?.values() ?? [])];
  }

  async test(name: string): Promise<{ ok: boolean; ms: number; toolCount: number; error?: string }> {
    const started = Date.now();
    try {
      const connection = this.connection(name);
      await connection.connect();
      await connection.ping();
      return { ok: true, ms: Date.now() - started, toolCount: connection.tools?.length ?? 0 };
    } catch (err) {
      const error = err instanceof McpCallError ? err.message : (err as Error).message;
      return { ok: false, ms: Date.now() - started, toolCount: 0, error };
    }
  }

  async reload(): Promise<void> {
    const loaded = this.read();
    const stopping: Array<Promise<void>> = [];
    const next = new Map(loaded.servers.map((e) => [e.name, e]));
    for (const [name, old] of this.entries) {
      const now = next.get(name);
      if (now && now.enabled === old.enabled && JSON.stringify(now.config) === JSON.stringify(old.config)) continue;
      // Removed, switched or changed: its old process and tools go; a changed one starts afresh on demand.
      stopping.push(this.connections.get(name)?.close() ?? Promise.resolve());
      this.connections.delete(name);
      this.unregisterTools(name);
    }
    await Promise.all(stopping);
    this.apply(loaded);
  }

  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => c.close()));
    this.listeners.clear();
  }

  /** What search_tools knows about a tool it found; undefined for tools that are not MCP tools. */
  toolInfo(qualifiedName: string): McpToolInfo | undefined {
    for (const tools of this.registered.values()) {
      const info = tools.get(qualifiedName);
      if (info) return info;
    }
    return undefined;
  }

  /**
   * Starts the enabled servers that are not running yet (all, or the one named), in parallel;
   * resolves to the ones that could not start, with the reason.
   */
  async startServers(only?: string): Promise<Array<{ name: string; error: string }>> {
    if (this.disposed) return [];
    const names = this.servers().filter((e) => e.enabled && (only === undefined || e.name === only)).map((e) => e.name);
    await Promise.all(names.map((name) => this.ensureConnection(name).ensureRunning().catch(() => undefined)));
    return names
      .map((name) => ({ name, connection: this.connections.get(name)! }))
      .filter(({ connection }) => connection.state !== 'running')
      .map(({ name, connection }) => ({ name, error: connection.error ?? connection.state }));
  }

  private read(): LoadedMcpConfig {
    const loaded = this.options.load?.() ?? loadMcpConfig({ home: this.options.home, workspaceRoot: this.options.workspaceRoot });
    this.lastWarnings = loaded.warnings;
    for (const warning of loaded.warnings) this.options.onWarning?.(warning);
    return loaded;
  }

  private apply(loaded: LoadedMcpConfig): void {
    this.entries = new Map(loaded.servers.map((e) => [e.name, e]));
    const registry = this.options.registry;
    const wanted = !this.options.eager && loaded.servers.some((e) => e.enabled);
    if (wanted && !registry.get(SEARCH_TOOLS_NAME)) registry.register(createSearchToolsTool(this, registry));
    if (!wanted && registry.get(SEARCH_TOOLS_NAME)) registry.unregister(SEARCH_TOOLS_NAME);
    this.changed();
  }

  private entry(name: string): McpServerEntry {
    const entry = this.entries.get(name);
    if (!entry) {
      const known = this.servers().map((e) => e.name);
      throw new Error(`No MCP server is named "${name}"${known.length ? ` (configured: ${known.join(', ')})` : ' (none is configured)'}.`);
    }
    return entry;
  }

  /** The connection of an enabled server; a disabled one is an error the management surfaces show. */
  private connection(name: string): McpConnection {
    if (!this.entry(name).enabled) throw new Error(`MCP server "${name}" is disabled; enable it first.`);
    return this.ensureConnection(name);
  }

  private ensureConnection(name: string): McpConnection {
    let connection = this.connections.get(name);
    if (!connection) {
      const entry = this.entry(name);
      connection = new McpConnection({
        name,
        config: entry.config,
        cwd: this.options.workspaceRoot,
        timeouts: this.options.timeouts,
        onStateChange: () => this.changed(),
        onTools: (tools) => this.syncTools(name, tools, connection!),
      });
      if (!this.disposed) this.connections.set(name, connection);
    }
    return connection;
  }

  private status(name: string): McpServerStatus {
    const entry = this.entry(name);
    const connection = entry.enabled ? this.connections.get(name) : undefined;
    const toolCount = connection?.tools?.length;
    return {
      name,
      state: entry.enabled ? (connection?.state ?? 'stopped') : 'disabled',
      transport: transportKind(entry.config),
      source: entry.source,
      file: entry.file,
      enabled: entry.enabled,
      ...(toolCount !== undefined ? { toolCount } : {}),
      ...(connection?.error ? { error: connection.error } : {}),
      restarts: connection?.restarts ?? 0,
    };
  }

  /** The server's tools in the registry as it lists them now; discovery survives a restart. */
  private syncTools(server: string, tools: readonly McpServerTool[], from: McpConnection): void {
    const registry = this.options.registry;
    const entry = this.entries.get(server);
    // A connection that was replaced (reload) or never kept (after dispose) registers nothing.
    if (!entry || !entry.enabled || this.connections.get(server) !== from) return;
    const before = this.registered.get(server) ?? new Map<string, McpToolInfo>();
    const now = new Map<string, McpToolInfo>();
    for (const definition of tools) {
      let qualifiedName = qualifiedToolName(server, definition.name);
      for (let n = 2; now.has(qualifiedName); n++) qualifiedName = qualifiedToolName(server, `${definition.name}_${n}`);
      if (registry.get(qualifiedName) && !before.has(qualifiedName)) {
        // A stand-in from an earlier failed call gives way; a tool from elsewhere keeps its name.
        if (!this.standIns.delete(qualifiedName)) continue;
        registry.unregister(qualifiedName);
      }
      const discovered = registry.isDiscovered(qualifiedName);
      if (registry.get(qualifiedName)) registry.unregister(qualifiedName);
      registry.register(
        createMcpTool({
          server,
          transport: transportKind(entry.config),
          definition,
          qualifiedName,
          deferred: !this.options.eager,
          mediaDir: this.options.scratchDir ? join(this.options.scratchDir, 'mcp') : undefined,
          call: (args, signal) => this.callTool(server, definition.name, args, signal),
        }),
      );
      if (discovered) registry.discover([qualifiedName]);
      now.set(qualifiedName, { qualifiedName, server, name: definition.name, description: definition.description ?? '' });
    }
    for (const name of before.keys()) if (!now.has(name)) registry.unregister(name);
    this.registered.set(server, now);
    this.changed();
  }

  private unregisterTools(server: string): void {
    for (const name of this.registered.get(server)?.keys() ?? []) this.options.registry.unregister(name);
    this.registered.delete(server);
  }

  private callTool(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal) {
    const connection = this.entries.get(server)?.enabled ? this.connections.get(server) : undefined;
    if (!connection) throw new McpCallError('unavailable', 'it was removed or disabled in the configuration');
    return connection.callTool(tool, args, signal);
  }

  /**
   * A call of `mcp__<server>__<tool>` before the server ran: start it, so its tools are registered.
   * A tool that cannot be had gets a one-shot stand-in that tells the model why.
   */
  private async resolveTool(name: string, signal?: AbortSignal): Promise<boolean> {
    const server = serverOfToolName(name, this.entries.keys());
    if (!server || this.disposed) return false;
    const registry = this.options.registry;
    const stand = (kind: 'other' | 'not_found', text: string) => {
      registry.register(unavailableTool(registry, name, kind, text));
      this.standIns.add(name);
      return true;
    };
    if (!this.entries.get(server)!.enabled) return stand('other', mcpText('error_disabled', { SERVER: server, TOOL: name }));
    const connection = this.ensureConnection(server);
    try {
      await connection.ensureRunning(signal);
    } catch (err) {
      if (signal?.aborted) return false;
      return stand('other', mcpText('error_unavailable', { SERVER: server, REASON: (err as Error).message }));
    }
    if (registry.get(name)) return true;
    const tools = [...(this.registered.get(server)?.keys() ?? [])];
    const shown = tools.length > MAX_NAMES_SHOWN ? `${tools.slice(0, MAX_NAMES_SHOWN).join(', ')} and ${tools.length - MAX_NAMES_SHOWN} more` : tools.join(', ');
    return stand('not_found', mcpText('error_unknown_tool', { SERVER: server, TOOL: name, TOOLS: shown || '(none)' }));
  }

  private changed(): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch {
        // a front end's listener never breaks the hub
      }
    }
  }
}
