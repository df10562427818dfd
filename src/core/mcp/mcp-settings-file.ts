// One settings file's MCP server map, read raw and rewritten in place. Only the server map changes:
// every other key stays as the user wrote it. A file that cannot be used (not JSON, not an object,
// a server map that is not an object) is described and never rewritten.
import { stat, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { readSettingsFile } from '../config/settings-file';
import { inTurn } from '../session/file-lock';
import { writeFileAtomic } from '../tools/edit/atomic-write';

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

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether the change edited the map (then it is written), or why it refused (nothing is written). */
export type ServersChange = { changed: true } | { changed: false; refusal: string };

/** A settings file created here: readable by its owner only. */
export const NEW_FILE_MODE = 0o600;

/**
 * Re-reads `file`, lets `change` edit its server map in place, and writes the file back atomically
 * (temp file + rename; an existing file keeps its permissions, a new one is 0600). Resolves to a problem in words when the file is
 * broken, the change refused, or the write failed; the file is then exactly as it was.
 */
export function updateMcpServers(file: string, key: McpServersKey, change: (servers: Record<string, unknown>) => ServersChange): Promise<string | undefined> {
  // One writer per file in this process: two edits in a row must not read the same old file.
  return inTurn(file, () => applyChange(file, key, change));
}

async function applyChange(file: string, key: McpServersKey, change: (servers: Record<string, unknown>) => ServersChange): Promise<string | undefined> {
  const read = readSettingsFile(file);
  if (read.status !== 'missing' && read.status !== 'ok') return brokenFile(file, read.problem);
  const settings = read.status === 'ok' ? read.settings : {};
  const current = settings[key] ?? {};
  if (!isPlainObject(current)) return brokenFile(file, `its "${key}" is not an object of servers by name`);
  const servers = { ...current };
  const outcome = change(servers);
  if (!outcome.changed) return outcome.refusal;
  if (Object.keys(servers).length === 0) delete settings[key];
  else settings[key] = servers;
  try {
    await mkdir(dirname(file), { recursive: true });
    // A file we create is the user's alone (it may hold --env and --header secrets); one that exists keeps its mode.
    const mode = await stat(file).then(
      (s) => s.mode & 0o777,
      () => NEW_FILE_MODE,
    );
    await writeFileAtomic(file, `${JSON.stringify(settings, null, 2)}\n`, { mode });
    return undefined;
  } catch (err) {
    return `Could not write ${file} (${(err as Error).message}); it is unchanged.`;
  }
}

function brokenFile(file: string, problem: string): string {
  return `${file} cannot be changed: ${problem}. Fix the file first; OpenDev leaves it as it is.`;
}
