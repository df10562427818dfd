// One settings file's MCP server map, read raw and rewritten in place. Only the server map changes:
// every other key stays as the user wrote it. A file that cannot be used (not JSON, not an object,
// a server map that is not an object) is described and never rewritten.
import { readSettingsFile } from '../config/settings-file';
import { brokenSettingsFile, updateSettingsFile, type SettingsChange } from '../config/settings-file-update';
import { isPlainObject } from '../plain-object';

/** `mcp_servers` in OpenDev's settings.json, `mcpServers` in .mcp.json (the format other agents use). */
export type McpServersKey = 'mcp_servers' | 'mcpServers';

export type McpServersRead =
  /** `servers` is `{}` when the file or the key is missing. */
  | { status: 'ok'; file: string; servers: Record<string, unknown> }
  | { status: 'broken'; file: string; problem: string };

export function readMcpServers(file: string, key: McpServersKey): McpServersRead {
  const read = readSettingsFile(file);
  if (read.status === 'missing') return { status: 'ok', file, servers: {} };
  if (read.status !== 'ok') return { status: 'broken', file, problem: read.problem };
  const servers = read.settings[key];
  if (servers === undefined) return { status: 'ok', file, servers: {} };
  if (!isPlainObject(servers)) return { status: 'broken', file, problem: `its "${key}" is not an object of servers by name` };
  return { status: 'ok', file, servers: { ...servers } };
}

/** Whether the change edited the map (then it is written), or why it refused (nothing is written). */
export type ServersChange = SettingsChange;

/**
 * Re-reads `file`, lets `change` edit its server map in place, and writes the file back atomically
 * (updateSettingsFile). Resolves to a problem in words when the file is broken, the change refused,
 * or the write failed; the file is then exactly as it was.
 */
export function updateMcpServers(file: string, key: McpServersKey, change: (servers: Record<string, unknown>) => ServersChange): Promise<string | undefined> {
  return updateSettingsFile(file, (settings) => {
    const current = settings[key] ?? {};
    if (!isPlainObject(current)) return { changed: false, refusal: brokenSettingsFile(file, `its "${key}" is not an object of servers by name`) };
    const servers = { ...current };
    const outcome = change(servers);
    if (!outcome.changed) return outcome;
    if (Object.keys(servers).length === 0) delete settings[key];
    else settings[key] = servers;
    return outcome;
  });
}
