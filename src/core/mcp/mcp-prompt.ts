// The MCP part of the main agent's system prompt: one compact line per enabled server, and no tool
// schema (search_tools finds them). It sits in the dynamic part and follows the hub's reloads.
import { basename } from 'node:path';
import { joinPromptParts, type TwoPartPrompt } from '../context/prompt/prompt-composer';
import { loadTemplate, renderTemplate } from '../templates';
import type { McpServerConfig, McpServerEntry } from './mcp-types';

const MAX_LINE_CHARS = 160;

/** templates/system/mcp-servers.md for these servers; '' when none is enabled. */
export function mcpServersPrompt(servers: readonly McpServerEntry[]): string {
  const enabled = servers.filter((s) => s.enabled);
  const template = loadTemplate('system/mcp-servers.md');
  if (enabled.length === 0 || !template) return '';
  return renderTemplate(template, { SERVERS: enabled.map(serverLine).join('\n') });
}

/**
 * `prompt` with the servers' lines appended to its dynamic part, rewritten in place whenever the
 * hub changes (the executor reads the dynamic part at the start of every turn).
 */
export function withMcpServers(prompt: TwoPartPrompt, hub: { servers(): McpServerEntry[]; onDidChange(listener: () => void): () => void } | undefined): TwoPartPrompt {
  if (!hub) return prompt;
  const base = prompt.dynamic;
  const result: TwoPartPrompt = { ...prompt };
  const update = () => {
    result.dynamic = joinPromptParts(base, mcpServersPrompt(hub.servers()));
  };
  update();
  hub.onDidChange(update);
  return result;
}

function serverLine(entry: McpServerEntry): string {
  const about = (entry.config.description?.trim() || transportOf(entry.config)).replace(/\s+/g, ' ');
  const line = `- ${entry.name}: ${about}`;
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line;
}

/** Launchers whose first argument says more about the server than their own name. */
const LAUNCHERS = new Set(['npx', 'pnpx', 'bunx', 'uvx', 'node', 'python', 'python3', 'bun', 'tsx']);

/** A stdio server's program (`npx -y @scope/server-x` → @scope/server-x), an HTTP server's host. */
function transportOf(config: McpServerConfig): string {
  if ('command' in config) {
    const program = basename(config.command);
    const target = LAUNCHERS.has(program.replace(/\.(exe|cmd)$/i, '')) ? config.args?.find((a) => !a.startsWith('-')) : undefined;
    return target ? (target.startsWith('@') ? target : basename(target)) : program;
  }
  let host = config.url;
  try {
    host = new URL(config.url).host;
  } catch {
    // the schema checked it; keep the text
  }
  return config.type === 'sse' ? `${host} (SSE)` : host;
}
