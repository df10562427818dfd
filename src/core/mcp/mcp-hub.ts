// A session's MCP servers (McpHubApi). Nothing starts with the session: a server starts on the
// first search_tools, a direct call of one of its tools (the registry's resolver), or an explicit
// connect. Its tools then join the session's registry as deferred tools, whose schemas reach the
// model only once discovered. Disabled servers offer nothing; dispose() stops every server. A
// server the project defines asks the user before its first start (McpTrustGate).
import type { CommandSandbox } from '../sandbox/command-sandbox';
import type { ToolRegistry } from '../tools/registry';
import type { UICallback } from '../ui';
import { loadMcpConfig, type LoadedMcpConfig } from './mcp-config';
import { McpCallError } from './mcp-call-error';
import { NO_LOGGER, scopedLogger, type Logger } from '../logger';
import { logToolCall } from './mcp-call-log';
import { McpConnection, type McpServerTool, type McpTimeouts } from './mcp-connection';
import { transportKind } from './mcp-transport';
import { serverOfToolName } from './mcp-names';
import { serverStatus } from './mcp-server-status';
import { mcpText } from './mcp-texts';
import { McpToolCatalog } from './mcp-tool-catalog';
import { McpTrustGate, notAllowedReason } from './mcp-trust-gate';
import type { McpHubApi, McpServerEntry, McpServerStatus, McpToolInfo } from './mcp-types';
import { createSearchToolsTool, SEARCH_TOOLS_NAME } from './search-tools-tool';

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
  /** Configuration problems (bad files, bad entries, a broken trust file), for the user. */
  onWarning?: (message: string) => void;
  /** The front end of the running turn (the session's relay): asks before a project's server first starts. */
  ui?: UICallback;
  /** The user trusts the folder's configuration (core/trust) and its MCP files are still what was trusted: its servers start without asking. */
  workspaceTrusted?: () => boolean;
  /** Nobody can answer (`opendev -p`): a project's servers start only when trusted before (`opendev mcp trust`). */
  unattended?: boolean;
  /** The session's OS sandbox: the project's stdio servers run inside it when `sandbox.mcp` is on. */
  sandbox?: CommandSandbox;
  /** Server starts, stops, failures and tool calls, for the host's log. */
  log?: Logger;
}

/** A server that did not start for search_tools: why, and whether the user's consent was missing. */
export interface StartFailure {
  name: string;
  error: string;
  notAllowed?: boolean;
}

export class McpHub implements McpHubApi {
  private entries = new Map<string, McpServerEntry>();
  private readonly connections = new Map<string, McpConnection>();
  private readonly catalog: McpToolCatalog;
  private readonly listeners = new Set<() => void>();
  private lastWarnings: string[] = [];
  private disposed = false;
  private readonly trust: McpTrustGate;
  private readonly log: Logger;

  constructor(private readonly options: McpHubOptions) {
    this.log = scopedLogger(options.log ?? NO_LOGGER, 'mcp');
    this.catalog = new McpToolCatalog({ registry: options.registry, eager: options.eager, scratchDir: options.scratchDir });
    this.trust = new McpTrustGate({ home: options.home, workspaceRoot: options.workspaceRoot, ui: options.ui, unattended: options.unattended, workspaceTrusted: options.workspaceTrusted, onWarning: options.onWarning });
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
    const connection = this.connectionForUser(name);
    await connection.connect().catch(() => undefined); // the status carries the failure
    return this.status(name);
  }

  async disconnect(name: string): Promise<void> {
    this.entry(name);
    await this.connections.get(name)?.close();
  }

  async tools(name: string): Promise<McpToolInfo[]> {
    const connection = this.connectionForUser(name);
    await connection.connect().catch(() => undefined);
    if (connection.state !== 'running') throw new Error(`MCP server "${name}" is not running: ${connection.error ?? connection.state}`);
    return this.catalog.toolsOf(name);
  }

  async test(name: string): Promise<{ ok: boolean; ms: number; toolCount: number; error?: string }> {
    const started = Date.now();
    try {
      const connection = this.connectionForUser(name);
      await connection.connect();
      await connection.ping();
      return { ok: true, ms: Date.now() - started, toolCount: connection.tools?.length ?? 0 };
    } catch (err) {
      const error = err instanceof McpCallError ? err.message : (err as Error).message;
      return { ok: false, ms: Date.now() - started, toolCount: 0, error };
    }
  }

  async setTrust(name: string, trusted: boolean): Promise<{ ok: boolean; message: string }> {
    const entry = this.entry(name);
    const outcome = trusted ? await this.trust.remember(entry) : await this.trust.forget(entry, this.connections.get(name)?.state === 'running');
    this.changed();
    return outcome;
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
      this.catalog.remove(name);
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
    return this.catalog.info(qualifiedName);
  }

  /**
   * Starts the enabled servers that are not running yet (all, or the one named), in parallel, once
   * the user allowed those the project defines (asked one by one); resolves to the ones that did
   * not start, with the reason.
   */
  async startServers(only?: string, signal?: AbortSignal): Promise<StartFailure[]> {
    if (this.disposed) return [];
    const refused: StartFailure[] = [];
    const names: string[] = [];
    for (const entry of this.servers().filter((e) => e.enabled && (only === undefined || e.name === only))) {
      const verdict = await this.trust.check(entry, signal);
      if (verdict.ok) names.push(entry.name);
      else refused.push({ name: entry.name, error: notAllowedReason(verdict.why), notAllowed: true });
    }
    if (this.disposed) return [];
    if (refused.length > 0) this.changed();
    // A reload while the user was being asked may have removed a server.
    const starting = names.filter((name) => this.entries.get(name)?.enabled);
    await Promise.all(starting.map((name) => this.ensureConnection(name).ensureRunning().catch(() => undefined)));
    const failed = starting
      .map((name) => ({ name, connection: this.connections.get(name)! }))
      .filter(({ connection }) => connection.state !== 'running')
      .map(({ name, connection }) => ({ name, error: connection.error ?? connection.state }));
    return [...refused, ...failed];
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

  /**
   * The connection of an enabled server for the user's own action on it (connect, tools, test),
   * which is their consent to start it; a disabled one is an error the management surfaces show.
   */
  private connectionForUser(name: string): McpConnection {
    const entry = this.entry(name);
    if (!entry.enabled) throw new Error(`MCP server "${name}" is disabled; enable it first.`);
    this.trust.allowForSession(entry);
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
        onStateChange: () => {
          this.log.info('server state', { server: name, state: connection!.state, transport: connection!.transport, sandboxed: connection!.sandboxed, pid: connection!.pid, restarts: connection!.restarts, error: connection!.error });
          this.changed();
        },
        onTools: (tools) => this.syncTools(name, tools, connection!),
        // The user's own servers run as they configured them; a repository's are contained.
        ...(this.options.sandbox?.settings.mcp && entry.source !== 'user' ? { sandbox: this.options.sandbox } : {}),
      });
      if (!this.disposed) this.connections.set(name, connection);
    }
    return connection;
  }

  private status(name: string): McpServerStatus {
    const entry = this.entry(name);
    return serverStatus(entry, entry.enabled ? this.connections.get(name) : undefined, this.trust.state(entry));
  }

  /** The server's tools in the registry as it lists them now; discovery survives a restart. */
  private syncTools(server: string, tools: readonly McpServerTool[], from: McpConnection): void {
    const entry = this.entries.get(server);
    // A connection that was replaced (reload) or never kept (after dispose) registers nothing.
    if (!entry || !entry.enabled || this.connections.get(server) !== from) return;
    this.catalog.sync({ server, transport: transportKind(entry.config), tools, call: (tool, args, signal) => this.callTool(server, tool, args, signal) });
    this.changed();
  }

  private callTool(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal) {
    const connection = this.entries.get(server)?.enabled ? this.connections.get(server) : undefined;
    if (!connection) throw new McpCallError('unavailable', 'it was removed or disabled in the configuration');
    return logToolCall(this.log, server, tool, connection.callTool(tool, args, signal));
  }

  /**
   * A call of `mcp__<server>__<tool>` before the server ran: start it, so its tools are registered.
   * A tool that cannot be had gets a one-shot stand-in that tells the model why.
   */
  private async resolveTool(name: string, signal?: AbortSignal): Promise<boolean> {
    const server = serverOfToolName(name, this.entries.keys());
    if (!server || this.disposed) return false;
    const stand = (text: string) => this.catalog.standIn(name, 'other', text);
    const entry = this.entries.get(server)!;
    if (!entry.enabled) return stand(mcpText('error_disabled', { SERVER: server, TOOL: name }));
    const verdict = await this.trust.check(entry, signal);
    if (!verdict.ok) {
      this.changed();
      if (signal?.aborted) return false;
      return stand(mcpText('error_not_allowed', { SERVER: server, TOOL: name, FILE: entry.file, REASON: notAllowedReason(verdict.why) }));
    }
    if (this.disposed || this.entries.get(server) !== entry) return false;
    const connection = this.ensureConnection(server);
    try {
      await connection.ensureRunning(signal);
    } catch (err) {
      if (signal?.aborted) return false;
      return stand(mcpText('error_unavailable', { SERVER: server, REASON: (err as Error).message }));
    }
    if (this.options.registry.get(name)) return true;
    return this.catalog.unknownTool(server, name);
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
