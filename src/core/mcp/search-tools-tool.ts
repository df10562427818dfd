// search_tools: lazy discovery (§2.4.8). MCP tools stay out of the schemas until the model looks
// for them: this starts the enabled servers not started yet (those the project defines once the
// user allowed them), scores every deferred tool against
// the query (a keyword of ≥ 3 characters scores 2 in the tool's name, 1 in its description), and
// the best matches become discovered, so their schemas join the next model call.
import * as z from 'zod';
import type { ToolRegistry } from '../tools/registry';
import { summaryLine, type Tool } from '../tools/tool';
import { mcpText } from './mcp-texts';
import type { McpServerStatus, McpToolInfo } from './mcp-types';

export const SEARCH_TOOLS_NAME = 'search_tools';
const MAX_MATCHES = 10;

/** Words that say nothing about which tool is meant. */
const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'from', 'that', 'this', 'into', 'tool', 'tools', 'mcp', 'use', 'using', 'can', 'all', 'any']);

/** What search_tools needs of the hub. */
export interface ToolSearchHub {
  /** `notAllowed`: a server the project defines that the user did not allow to start. */
  startServers(only?: string, signal?: AbortSignal): Promise<Array<{ name: string; error: string; notAllowed?: boolean }>>;
  list(): McpServerStatus[];
  /** An MCP tool's full schema when the one sent was cut down for size. */
  toolInfo?(qualifiedName: string): McpToolInfo | undefined;
}

// Every word here is paid in every request of a session with MCP servers: kept to the bone
// (bench/mcp). brief = names + first description line; full = + parameters. No server filter:
// a server's name is part of its tools' names, so a query naming it ranks its tools first.
const schema = z.lazy(() => z.object({
  query: z.string().trim().refine((q) => q.length > 0, 'Give at least one keyword.').describe('Keywords.'),
  detail: z.enum(['names', 'brief', 'full']).optional().describe('Default brief.'),
}));

export function createSearchToolsTool(hub: ToolSearchHub, registry: ToolRegistry): Tool<typeof schema> {
  return {
    name: SEARCH_TOOLS_NAME,
    category: 'meta',
    // It starts servers but changes nothing in the workspace: plan mode may search too.
    readOnly: true,
    schema,
    async run(args, ctx) {
      const failed = await hub.startServers(undefined, ctx.signal);
      const keywords = searchKeywords(args.query);
      const scored = registry
        .deferredTools()
        .map((tool) => ({ tool, score: scoreTool(keywords, tool.name, tool.description ?? '') }))
        .filter((m) => m.score > 0)
        .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name));
      const unavailable = [failed.filter((f) => !f.notAllowed), failed.filter((f) => f.notAllowed)]
        .map((group, i) => (group.length ? `\n${mcpText(i === 0 ? 'search_unavailable' : 'search_not_allowed', { SERVERS: group.map((f) => `${f.name} (${f.error})`).join('; ') })}` : ''))
        .join('');
      if (scored.length === 0) {
        const lines = hub.list().map(describeServer);
        return { ok: true, output: `${mcpText('search_none', { QUERY: args.query })}\n${lines.join('\n')}${unavailable}`, summary: summaryLine(`✓ search_tools "${args.query}": no match`) };
      }
      const top = scored.slice(0, MAX_MATCHES).map((m) => m.tool);
      registry.discover(top.map((t) => t.name));
      const count = `${top.length} tool${top.length === 1 ? '' : 's'}`;
      const more = scored.length > top.length ? ` (${scored.length - top.length} more matched: narrow the query to see them)` : '';
      const lines = top.map((t) => describeTool(t, args.detail ?? 'brief', hub.toolInfo?.(t.name)?.fullSchema));
      return {
        ok: true,
        output: `${mcpText('search_found', { COUNT: count, QUERY: args.query })}${more}\n${lines.join('\n')}${unavailable}`,
        summary: summaryLine(`✓ search_tools "${args.query}": ${count} (${top.slice(0, 3).map((t) => t.name).join(', ')}${top.length > 3 ? ', …' : ''})`),
      };
    },
  };
}

/** The query's keywords: lower-case words of at least 3 characters, stop words left out, each once. */
export function searchKeywords(query: string): string[] {
  const words = query.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
  return [...new Set(words)];
}

/** 2 for each keyword in the tool's name, 1 for each in its description. */
export function scoreTool(keywords: readonly string[], name: string, description: string): number {
  const n = name.toLowerCase();
  const d = description.toLowerCase();
  return keywords.reduce((score, k) => score + (n.includes(k) ? 2 : 0) + (d.includes(k) ? 1 : 0), 0);
}

function describeTool(tool: Tool, detail: 'names' | 'brief' | 'full', fullSchema?: Record<string, unknown>): string {
  if (detail === 'names') return `- ${tool.name}`;
  const firstLine = (tool.description ?? '').split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  const brief = `- ${tool.name}${firstLine ? `: ${firstLine}` : ''}`;
  return detail === 'full' ? `${brief}\n  parameters: ${JSON.stringify(fullSchema ?? tool.parameters ?? {})}` : brief;
}

function describeServer(s: McpServerStatus): string {
  if (s.state === 'disabled') return `- ${s.name}: disabled`;
  if (s.state === 'failed') return `- ${s.name}: failed (${s.error ?? 'unknown reason'})`;
  if (s.state === 'stopped' && (s.trust === 'ask' || s.trust === 'declined')) return `- ${s.name}: not started (the user has not allowed it)`;
  return `- ${s.name}: ${s.toolCount ?? 0} tool${s.toolCount === 1 ? '' : 's'}${s.state === 'running' ? '' : ` (${s.state})`}`;
}
