// One MCP server, on the official SDK: started on first use, its tools listed (all pages), calls
// with the caller's AbortSignal and a timeout; a crash (the child exits, the connection drops)
// restarts it with exponential backoff, and after too many crashes in a row it stays `failed` with
// the reason. close() stops it (the SDK ends stdin, then SIGTERM, then SIGKILL).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { mcpSdk } from '../lazy-libraries';
import { describeStartFailure, McpCallError, withStderr } from './mcp-call-error';
import { createTransport, TailBuffer, transportKind, type McpTransportKind } from './mcp-transport';
import type { McpServerConfig, McpServerState } from './mcp-types';
import { resolve } from 'node:path';
import { shellCommand } from '../process/process-group';
import { quoteShellWord } from '../shell/shell-text';
import type { CommandSandbox, SandboxedLaunch } from '../sandbox/command-sandbox';
import { opendevVersion } from '../version';

export type McpServerTool = SdkTool;
type ConnectionState = Exclude<McpServerState, 'disabled'>;

export interface McpTimeouts {
  /** Spawn, initialize and list tools (npx may download the server first). */
  startMs: number;
  /** One tool call without progress notifications. */
  callMs: number;
  /** The first restart's delay; each further one doubles it. */
  backoffMs: number;
  /** Restarts in a row before the server is left `failed`. */
  maxRestarts: number;
  /** A server that ran this long before crashing starts its restart count afresh. */
  stableMs: number;
}

export const DEFAULT_MCP_TIMEOUTS: McpTimeouts = { startMs: 60_000, callMs: 120_000, backoffMs: 500, maxRestarts: 5, stableMs: 30_000 };

export interface McpConnectionOptions {
  name: string;
  config: McpServerConfig;
  /** Where a stdio server runs (a relative `cwd` in its entry resolves from here): the workspace. */
  cwd: string;
  timeouts?: Partial<McpTimeouts>;
  /** Every state change (starting, running, restarting, failed, stopped). */
  onStateChange?: () => void;
  /** The server's tools, after every (re)start and list_changed notification. */
  onTools?: (tools: readonly McpServerTool[]) => void;
  /** Waits `ms` before a restart (default a timer close() cancels): a test records the schedule instead of sleeping. */
  backoffWait?: (ms: number) => Promise<void>;
  /** A stdio server the project defines runs in the OS sandbox (the session's, `sandbox.mcp`). */
  sandbox?: CommandSandbox;
}

const STDERR_TAIL_CHARS = 2_000;

// Servers see the version the user runs (package.json's).
const CLIENT_INFO = { name: 'opendev', version: opendevVersion() };

export class McpConnection {
  readonly name: string;
  readonly transport: McpTransportKind;
  private readonly timeouts: McpTimeouts;
  private stateValue: ConnectionState = 'stopped';
  private client: Client | undefined;
  /** The client being connected, so close() can stop it half-way. */
  private attempt: Client | undefined;
  private pending: Promise<void> | undefined;
  /** Bumped by every start and close: a close event from an older client is not a crash. */
  private generation = 0;
  /** Bumped by close() alone: a restart loop that sees it change gives up. */
  private closes = 0;
  private startedAt = 0;
  private crashesInARow = 0;
  private restartCount = 0;
  private lastError: string | undefined;
  private toolList: McpServerTool[] | undefined;
  private stderr = new TailBuffer(STDERR_TAIL_CHARS);
  private childPid: number | undefined;
  /** The sandbox's hold on the running server (its network list), released when it starts again or closes. */
  private launch: SandboxedLaunch | undefined;
  /** It runs in the OS sandbox. */
  sandboxed = false;
  private wakeBackoff: (() => void) | undefined;

  constructor(private readonly options: McpConnectionOptions) {
    this.name = options.name;
    this.transport = transportKind(options.config);
    this.timeouts = { ...DEFAULT_MCP_TIMEOUTS, ...options.timeouts };
  }

  get state(): ConnectionState {
    return this.stateValue;
  }

  /** The last failure (start, crash), for the user. */
  get error(): string | undefined {
    return this.lastError;
  }

  /** Restarts after crashes since the connection was made. */
  get restarts(): number {
    return this.restartCount;
  }

  /** The tools as last listed; undefined before the first start. */
  get tools(): readonly McpServerTool[] | undefined {
    return this.toolList;
  }

  /** The child process of a running stdio server. */
  get pid(): number | undefined {
    return this.stateValue === 'running' ? this.childPid : undefined;
  }

  /** Lazy start: running → nothing; stopped → start; starting or restarting → wait; failed → McpCallError('unavailable'). */
  async ensureRunning(signal?: AbortSignal): Promise<void> {
    if (this.stateValue === 'running') return;
    if (this.stateValue === 'failed') throw new McpCallError('unavailable', this.lastError ?? 'the server failed');
    if (this.stateValue === 'stopped') this.startOnce();
    await untilAborted(this.pending ?? Promise.resolve(), signal);
    // The pending start settled: whatever it did is in the state now (a close may have stopped it).
    if (this.state !== 'running') throw new McpCallError('unavailable', this.lastError ?? 'the server was stopped');
  }

  /** An explicit (re)connect: a failed server gets a fresh start with its restart budget reset. */
  async connect(): Promise<void> {
    if (this.stateValue === 'failed') {
      this.crashesInARow = 0;
      this.setState('stopped');
    }
    await this.ensureRunning();
  }

  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    await this.ensureRunning(signal);
    const client = this.client!;
    try {
      const result = await client.callTool({ name, arguments: args }, undefined, {
        signal,
        timeout: this.timeouts.callMs,
        // A server reporting progress keeps the call alive, up to ten times the timeout.
        resetTimeoutOnProgress: true,
        maxTotalTimeout: this.timeouts.callMs * 10,
        onprogress: () => undefined,
      });
      return result as CallToolResult;
    } catch (err) {
      throw this.callFailure(err, client, signal);
    }
  }

  async ping(signal?: AbortSignal): Promise<void> {
    await this.ensureRunning(signal);
    await this.client!.ping({ signal, timeout: this.timeouts.startMs });
  }

  /** Stops the server (and any restart in progress); a later call starts it again. */
  async close(): Promise<void> {
    this.generation++;
    this.closes++;
    const clients = [this.client, this.attempt].filter((c): c is Client => c !== undefined);
    this.client = undefined;
    this.attempt = undefined;
    this.wakeBackoff?.();
    if (this.stateValue !== 'stopped') this.setState('stopped');
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    this.launch?.finish('');
    this.launch = undefined;
  }

  private startOnce(): void {
    this.pending ??= this.open()
      .catch((err: unknown) => {
        if (err instanceof Superseded) return;
        this.lastError = (err as Error).message;
        this.setState('failed');
      })
      .finally(() => (this.pending = undefined));
  }

  /** One start: spawn or reach the server, initialize, list its tools. Throws a message for the user. */
  private async open(): Promise<void> {
    const generation = ++this.generation;
    if (this.stateValue !== 'restarting') this.setState('starting');
    const stderr = new TailBuffer(STDERR_TAIL_CHARS);
    const sdk = mcpSdk();
    const client = new sdk.Client(CLIENT_INFO, {
      capabilities: {},
      listChanged: { tools: { autoRefresh: false, onChanged: () => void this.relist(client) } },
    });
    client.onclose = () => this.closed(generation);
    this.attempt = client;
    let transport: Transport | undefined;
    try {
      transport = createTransport(await this.launchConfig(), this.options.cwd, stderr);
      await client.connect(transport, { timeout: this.timeouts.startMs });
      const tools = await listAllTools(client, this.timeouts.startMs);
      if (generation !== this.generation) throw new Superseded();
      this.client = client;
      this.attempt = undefined;
      this.stderr = stderr;
      this.childPid = transport instanceof sdk.StdioClientTransport ? (transport.pid ?? undefined) : undefined;
      this.startedAt = Date.now();
      this.toolList = tools;
      this.lastError = undefined;
      this.setState('running');
      this.options.onTools?.(tools);
    } catch (err) {
      const superseded = err instanceof Superseded || generation !== this.generation;
      if (this.attempt === client) this.attempt = undefined;
      if (!superseded) this.generation++; // the close below is ours, not a crash
      await client.close().catch(() => undefined);
      if (superseded) throw new Superseded();
      throw new Error(describeStartFailure(err, stderr.text, this.timeouts.startMs));
    }
  }

  /**
   * The entry as it starts: a sandboxed stdio server becomes the shell running the sandbox's
   * wrapper around its command line (the process tree inside it, as for run_command).
   */
  private async launchConfig(): Promise<McpServerConfig> {
    const config = this.options.config;
    if (!this.options.sandbox || !('command' in config)) return config;
    const line = [config.command, ...(config.args ?? [])].map(quoteShellWord).join(' ');
    this.launch?.finish('');
    const launch = await this.options.sandbox.wrap(`exec ${line}`, resolve(this.options.cwd, config.cwd ?? '.'));
    this.launch = launch;
    if (!launch) return config;
    this.sandboxed = true;
    const shell = shellCommand(launch.line);
    // stdin is a socket here: bash would take itself for an rsh session and read ~/.bashrc (which
    // can hang) unless it is nested; SHLVL says it is.
    return { ...config, command: shell.file, args: shell.args, env: { ...config.env, ...launch.env, SHLVL: '1' } };
  }

  /** The connection closed. Ours (close(), a failed start) is expected; anything else is a crash. */
  private closed(generation: number): void {
    if (generation !== this.generation || this.stateValue !== 'running') return;
    this.crashed('the server stopped unexpectedly');
  }

  private crashed(what: string): void {
    this.generation++;
    const client = this.client;
    this.client = undefined;
    void client?.close().catch(() => undefined);
    const stable = Date.now() - this.startedAt >= this.timeouts.stableMs;
    this.crashesInARow = stable ? 1 : this.crashesInARow + 1;
    this.lastError = withStderr(what, this.stderr.text);
    this.setState('restarting');
    this.pending = this.restartLoop().finally(() => (this.pending = undefined));
  }

  /** Restarts with backoff (0.5 s, 1 s, 2 s, …) until one start works, the budget is spent, or close() stops it. */
  private async restartLoop(): Promise<void> {
    const closes = this.closes;
    for (;;) {
      if (this.crashesInARow > this.timeouts.maxRestarts) {
        this.lastError = `it crashed ${this.crashesInARow} times in a row and was not restarted again; last: ${this.lastError}`;
        this.setState('failed');
        return;
      }
      await this.backoff(this.timeouts.backoffMs * 2 ** (this.crashesInARow - 1));
      if (this.closes !== closes) return; // close() ran meanwhile
      try {
        await this.open();
        this.restartCount++;
        this.setState('running'); // again, so listeners see the new restart count
        return;
      } catch (err) {
        if (err instanceof Superseded) return;
        this.lastError = (err as Error).message;
        this.crashesInARow++;
      }
    }
  }

  /** Waits before a restart; close() cuts it short. */
  private async backoff(ms: number): Promise<void> {
    await new Promise<void>((wake) => {
      let timer: NodeJS.Timeout | undefined;
      this.wakeBackoff = () => {
        clearTimeout(timer);
        wake();
      };
      if (this.options.backoffWait) void this.options.backoffWait(ms).then(wake, wake);
      else timer = setTimeout(wake, ms);
    });
    this.wakeBackoff = undefined;
  }

  /** The server said its tools changed: list them again. */
  private async relist(client: Client): Promise<void> {
    if (client !== this.client) return;
    try {
      const tools = await listAllTools(client, this.timeouts.startMs);
      if (client !== this.client) return;
      this.toolList = tools;
      this.options.onTools?.(tools);
    } catch {
      // the next start lists them again
    }
  }

  private callFailure(err: unknown, client: Client, signal?: AbortSignal): McpCallError {
    const message = (err as Error)?.message ?? String(err);
    const { ErrorCode, McpError } = mcpSdk();
    if (signal?.aborted) return new McpCallError('interrupted', 'the call was interrupted');
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return new McpCallError('timeout', `no answer within ${Math.round(this.timeouts.callMs / 1000)} s`);
    const closed = err instanceof McpError && err.code === ErrorCode.ConnectionClosed;
    if (closed || !(err instanceof McpError)) {
      // A stdio child that exited announces itself; an HTTP server that went away only shows here.
      if (client === this.client && this.stateValue === 'running') this.crashed(`the connection failed: ${message}`);
      return new McpCallError('crashed', withStderr(message, this.stderr.text));
    }
    return new McpCallError('protocol', message);
  }

  private setState(state: ConnectionState): void {
    this.stateValue = state;
    this.options.onStateChange?.();
  }
}

/** Every page of tools/list. */
async function listAllTools(client: Client, timeout: number): Promise<McpServerTool[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: McpServerTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

async function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) throw new McpCallError('interrupted', 'the call was interrupted');
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new McpCallError('interrupted', 'the call was interrupted'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** A start that close() overtook: not a failure of the server. */
class Superseded extends Error {}
