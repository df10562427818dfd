// The MCP servers and their tools as text, the same in /mcp (CLI, OpenDev terminal, VS Code chat)
// and `opendev mcp list`.
import type { McpServerStatus, McpToolInfo } from './mcp-types';
import { oneLine } from '../process/task-format';

/** How much of an error or a description a row shows. */
export const ROW_TEXT_WIDTH = 100;

export function sourceLabel(source: McpServerStatus['source']): string {
  return source === 'mcp.json' ? '.mcp.json' : source;
}

/** A table: name, state, transport, source, tools, last error. */
export function formatServerTable(servers: readonly McpServerStatus[], options: { command: string; footer?: string }): string {
  if (servers.length === 0) {
    return [
      'No MCP servers are configured.',
      `Add one: ${options.command} add <name> --command <cmd> [args…]  (or --url <url>; --project for this project only)`,
      'Servers listed in the project\'s .mcp.json (the format other agents use) are read too.',
    ].join('\n');
  }
  const rows = servers.map((s) => [
    s.name,
    s.restarts > 0 ? `${s.state} (restarted ${s.restarts}×)` : s.state,
    s.transport,
    sourceLabel(s.source),
    s.toolCount === undefined ? '-' : String(s.toolCount),
    s.error ? oneLine(s.error, ROW_TEXT_WIDTH, 'spaces') : '',
  ]);
  const header = ['NAME', 'STATE', 'TRANSPORT', 'SOURCE', 'TOOLS', 'LAST ERROR'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}`.trimEnd();
  // Servers the project defines start only with the user's consent.
  const asking = servers.filter((s) => s.enabled && (s.trust === 'ask' || s.trust === 'declined'));
  const consent = asking.length
    ? [`Defined by the project, not allowed yet: ${asking.map((s) => `${s.name}${s.trust === 'declined' ? ' (declined this session)' : ''}`).join(', ')}. Each asks before its first start; ${options.command} trust <name> allows one for good.`]
    : [];
  return [
    `MCP servers (${servers.length}):`,
    line(header),
    ...rows.map(line),
    ...consent,
    options.footer ?? `Servers start when the agent first needs one of their tools; ${options.command} connect <name> starts one now, ${options.command} tools <name> lists its tools.`,
  ].join('\n');
}

/** The server's tools with one-line descriptions, and the name the agent calls each by. */
export function formatToolList(server: string, tools: readonly McpToolInfo[]): string {
  if (tools.length === 0) return `MCP server "${server}" offers no tools.`;
  const width = Math.max(...tools.map((t) => t.name.length));
  return [
    `MCP server "${server}": ${tools.length} tool${tools.length === 1 ? '' : 's'} (the agent calls them mcp__${server}__<tool>):`,
    ...tools.map((t) => `  ${t.name.padEnd(width)}  ${oneLine(t.description || '(no description)', ROW_TEXT_WIDTH, 'spaces')}`.trimEnd()),
  ].join('\n');
}

export function formatTestResult(name: string, result: { ok: boolean; ms: number; toolCount: number; error?: string }): string {
  return result.ok
    ? `MCP server "${name}" is healthy: ${result.toolCount} tool${result.toolCount === 1 ? '' : 's'}, answered in ${Math.round(result.ms)} ms.`
    : `MCP server "${name}" failed its check after ${Math.round(result.ms)} ms: ${result.error ?? 'unknown error'}`;
}
