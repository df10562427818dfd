// The MCP tools a session's registry holds, server by server: each server's tools registered under
// `mcp__<server>__<tool>` as it lists them now (deferred unless eager), discovery kept across
// restarts, and one-shot stand-ins for calls that could not be resolved (they give way to the real
// tool once its server lists it). The hub decides when; this keeps the registry in step.
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../tools/registry';
import type { McpServerTool } from './mcp-connection';
import { qualifiedToolName } from './mcp-names';
import { mcpText } from './mcp-texts';
import { modelSchema } from './mcp-schema';
import { createMcpTool } from './mcp-tool';
import type { McpTransportKind } from './mcp-transport';
import type { McpToolInfo } from './mcp-types';
import { unavailableTool } from './unavailable-tool';

/** A server's tool names listed in an "unknown tool" answer (search_tools finds the rest). */
const MAX_NAMES_SHOWN = 20;

export interface McpToolCatalogOptions {
  registry: ToolRegistry;
  /** Every schema in every request (only to measure what lazy discovery saves). */
  eager?: boolean;
  /** The session's scratch folder: images and audio MCP tools return are saved under it. */
  scratchDir?: string;
}

export interface McpServerTools {
  server: string;
  transport: McpTransportKind;
  tools: readonly McpServerTool[];
  /** Runs one of them on the server's current connection. */
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

export class McpToolCatalog {
  /** The qualified names each server has in the registry, with what the model is told about them. */
  private readonly registered = new Map<string, Map<string, McpToolInfo>>();
  private readonly standIns = new Set<string>();

  constructor(private readonly options: McpToolCatalogOptions) {}

  /** The server's tools in the registry as it lists them now; a discovered tool stays discovered. */
  sync({ server, transport, tools, call }: McpServerTools): void {
    const registry = this.options.registry;
    const before = this.registered.get(server) ?? new Map<string, McpToolInfo>();
    const now = new Map<string, McpToolInfo>();
    for (const definition of tools) {
      let qualifiedName = qualifiedToolName(server, definition.name);
      for (let n = 2; now.has(qualifiedName); n++) qualifiedName = qualifiedToolName(server, `${definition.name}_${n}`);
      if (registry.get(qualifiedName) && !before.has(qualifiedName)) {
        // A stand-in from an earlier failed call gives way; a tool from elsewhere keeps its name.
        if (!this.standIns.delete(qualifiedName)) continue;
        registry.unregister(qualifiedName);
      }
      const discovered = registry.isDiscovered(qualifiedName);
      const schema = modelSchema(definition.inputSchema);
      if (registry.get(qualifiedName)) registry.unregister(qualifiedName);
      registry.register(
        createMcpTool({
          server,
          transport,
          definition,
          qualifiedName,
          deferred: !this.options.eager,
          parameters: schema.parameters,
          mediaDir: this.options.scratchDir ? join(this.options.scratchDir, 'mcp') : undefined,
          call: (args, signal) => call(definition.name, args, signal),
        }),
      );
      if (discovered) registry.discover([qualifiedName]);
      now.set(qualifiedName, { qualifiedName, server, name: definition.name, description: definition.description ?? '', ...(schema.full ? { fullSchema: schema.full } : {}) });
    }
    for (const name of before.keys()) if (!now.has(name)) registry.unregister(name);
    this.registered.set(server, now);
  }

  /** The server's tools leave the registry (removed, disabled or changed in the configuration). */
  remove(server: string): void {
    for (const name of this.registered.get(server)?.keys() ?? []) this.options.registry.unregister(name);
    this.registered.delete(server);
  }

  /** The server's tools as registered (empty before it first listed them). */
  toolsOf(server: string): McpToolInfo[] {
    return [...(this.registered.get(server)?.values() ?? [])];
  }

  /** What search_tools knows about a tool; undefined for tools that are not MCP tools. */
  info(qualifiedName: string): McpToolInfo | undefined {
    for (const tools of this.registered.values()) {
      const info = tools.get(qualifiedName);
      if (info) return info;
    }
    return undefined;
  }

  /** Registers a one-shot tool under `name` that answers the call with `text` (why it cannot run). */
  standIn(name: string, kind: 'other' | 'not_found', text: string): true {
    const registry = this.options.registry;
    registry.register(unavailableTool(registry, name, kind, text));
    this.standIns.add(name);
    return true;
  }

  /** The model called a tool its (running) server does not have: say which it has. */
  unknownTool(server: string, name: string): true {
    const tools = [...(this.registered.get(server)?.keys() ?? [])];
    const shown = tools.length > MAX_NAMES_SHOWN ? `${tools.slice(0, MAX_NAMES_SHOWN).join(', ')} and ${tools.length - MAX_NAMES_SHOWN} more` : tools.join(', ');
    return this.standIn(name, 'not_found', mcpText('error_unknown_tool', { SERVER: server, TOOL: name, TOOLS: shown || '(none)' }));
  }
}
