// The names the model calls MCP tools by: `mcp__<server>__<tool>`. Providers accept only
// [a-zA-Z0-9_-] and at most 64 characters in a function name, whatever the server calls its tool.
import { createHash } from 'node:crypto';

/** What a server may be called in the configuration (its tools' names must stay valid for every provider). */
export const SERVER_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

export const MCP_TOOL_PREFIX = 'mcp__';
const MAX_TOOL_NAME = 64;

/**
 * `mcp__<server>__<tool>`, with characters providers refuse replaced by `_`; a name past 64
 * characters keeps its start and gets a short hash of the whole, so two long names stay apart.
 */
export function qualifiedToolName(server: string, tool: string): string {
  const name = `${MCP_TOOL_PREFIX}${server}__${tool.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  const hash = createHash('sha1').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}

/** The server a qualified name belongs to, among `servers` (the longest match, since names may contain `__`). */
export function serverOfToolName(name: string, servers: Iterable<string>): string | undefined {
  if (!name.startsWith(MCP_TOOL_PREFIX)) return undefined;
  let best: string | undefined;
  for (const server of servers) {
    if (name.startsWith(`${MCP_TOOL_PREFIX}${server}__`) && (best === undefined || server.length > best.length)) best = server;
  }
  return best;
}
