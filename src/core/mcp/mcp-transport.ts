// How the SDK reaches one server: a child process over stdio (its stderr kept for error
// messages), Streamable HTTP, or the older HTTP+SSE for servers that only speak that.
import { resolve } from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { mcpSdk } from '../lazy-libraries';
import type { McpServerConfig } from './mcp-types';

export type McpTransportKind = 'stdio' | 'http' | 'sse';

export function transportKind(config: McpServerConfig): McpTransportKind {
  if ('command' in config) return 'stdio';
  return config.type === 'sse' ? 'sse' : 'http';
}

/** A new transport for `config`; a stdio server runs in `cwd` (its entry's relative `cwd` resolves from there) and writes its stderr to `stderr`. */
export function createTransport(config: McpServerConfig, cwd: string, stderr: TailBuffer): Transport {
  const { SSEClientTransport, StdioClientTransport, StreamableHTTPClientTransport } = mcpSdk();
  if ('command' in config) {
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      // The SDK passes a safe minimum of the environment (its getDefaultEnvironment(): PATH, HOME,
      // USER, SHELL, TERM, LOGNAME, nothing secret) and then this `env`: the entry's own variables,
      // `${VAR}` expanded, where a project's entry gets no secret variable (mcp-config.ts).
      env: config.env,
      cwd: resolve(cwd, config.cwd ?? '.'),
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer | string) => stderr.append(chunk.toString()));
    return transport;
  }
  const requestInit = config.headers ? { headers: config.headers } : undefined;
  if (config.type === 'sse') return new SSEClientTransport(new URL(config.url), { requestInit });
  return new StreamableHTTPClientTransport(new URL(config.url), { requestInit });
}

/** The last `max` characters written (a server's stderr, for error messages). */
export class TailBuffer {
  private value = '';
  constructor(private readonly max: number) {}
  append(chunk: string): void {
    this.value = (this.value + chunk).slice(-this.max);
  }
  get text(): string {
    return this.value;
  }
}
