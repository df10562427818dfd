// The real MCP servers from npm (node_modules/.bin) and the generated-tools fixture, as server
// entries a hub or an agent can be given; and a free port on 127.0.0.1 for the HTTP transports.
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadedMcpConfig } from '../../src/core/mcp/mcp-config';
import type { McpServerConfig, McpServerEntry } from '../../src/core/mcp/mcp-types';

export const repo = join(__dirname, '../../..');
const bin = (name: string) => {
  const file = join(repo, 'node_modules', '.bin', name);
  if (!existsSync(file)) throw new Error(`${file} is missing: the MCP servers are dev dependencies (npm install)`);
  return file;
};

/** The fixture server's script (built by esbuild with the tests). */
export const fixtureServerScript = join(repo, 'out', 'test', 'fixtures', 'mcp', 'generated-tools-server.js');

export const serverConfigs = {
  filesystem: (dir: string): McpServerConfig => ({ command: bin('mcp-server-filesystem'), args: [dir] }),
  memory: (file: string): McpServerConfig => ({ command: bin('mcp-server-memory'), env: { MEMORY_FILE_PATH: file } }),
  everything: (): McpServerConfig => ({ command: bin('mcp-server-everything') }),
  /** `count` generated tools plus the fixed ones (weather_forecast, atmosphere_readings, sleep, crash, whoami). */
  fixture: (count: number, ...extra: string[]): McpServerConfig => ({ command: process.execPath, args: [fixtureServerScript, String(count), ...extra] }),
};

/** The fixture's fixed tools, beside the generated ones. */
export const FIXTURE_FIXED_TOOLS = 5;

/** A configured server; the user's own by default (a project's asks before it first starts). */
export function entry(name: string, config: McpServerConfig, enabled = true, source: McpServerEntry['source'] = 'user'): McpServerEntry {
  return { name, config, source, file: '(test)', enabled };
}

/** A `load` for the hub: these servers, no warnings. */
export function servers(...entries: McpServerEntry[]): () => LoadedMcpConfig {
  return () => ({ servers: entries, warnings: [] });
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `opendev-mcp-${prefix}-`));
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Test timeouts: quick restarts, so crash tests take milliseconds. */
export const QUICK = { backoffMs: 20, startMs: 20_000, callMs: 20_000 };
