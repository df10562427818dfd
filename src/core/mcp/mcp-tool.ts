// One MCP server tool as our Tool. The server's input schema goes to the model cleaned (mcp-schema:
// nothing a provider refuses, not too large) and the server validates the arguments; we only insist
// on a JSON object. `readOnly` (plan mode, parallel
// runs) follows the server's readOnlyHint unless it also says destructive, but approval still asks
// (askEvenIfReadOnly): a hint is the server's word, and MCP calls ask like any call that may
// change something unless the level is auto or the user always-allowed the tool.
import * as z from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ToolError, type Tool, type ToolErrorKind } from '../tools/tool';
import { McpCallError, type McpCallFailure } from './mcp-call-error';
import type { McpServerTool } from './mcp-connection';
import type { McpTransportKind } from './mcp-transport';
import { mapMcpResult } from './mcp-result';
import { modelSchema } from './mcp-schema';
import { mcpText, type McpTextName } from './mcp-texts';

/** Provider-friendly cap on a description the server wrote (some run to pages). */
const MAX_DESCRIPTION_CHARS = 1_024;

export interface McpToolSource {
  server: string;
  transport: McpTransportKind;
  definition: McpServerTool;
  /** `mcp__<server>__<tool>` (qualifiedToolName). */
  qualifiedName: string;
  /** Hidden from the schemas until discovered (lazy discovery); false only to measure eager loading. */
  deferred: boolean;
  /** Where images and audio it returns are saved (the session's scratch folder). */
  mediaDir?: string;
  /** The schema as sent; default modelSchema() of the definition's. */
  parameters?: Record<string, unknown>;
  /** Runs the call on the server's current connection (started on demand). */
  call(args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

function argumentsSchema() {
  return z.record(z.string(), z.unknown(), { error: () => mcpText('not_object') });
}

export function createMcpTool(source: McpToolSource): Tool<ReturnType<typeof argumentsSchema>> {
  const { definition, qualifiedName } = source;
  const schema = argumentsSchema();
  const hints = definition.annotations ?? {};
  return {
    name: qualifiedName,
    // Tools of remote servers reach the network; local ones are the agent's own business.
    category: source.transport === 'stdio' ? 'meta' : 'web',
    readOnly: hints.readOnlyHint === true && hints.destructiveHint !== true,
    askEvenIfReadOnly: true,
    deferred: source.deferred,
    schema,
    description: trimDescription(definition.description ?? definition.title ?? definition.name),
    parameters: source.parameters ?? modelSchema(definition.inputSchema).parameters,
    async run(args, ctx) {
      try {
        const result = await source.call(args, ctx.signal);
        return await mapMcpResult(result, { toolName: qualifiedName, mediaDir: source.mediaDir });
      } catch (err) {
        if (!(err instanceof McpCallError)) throw err;
        const { kind, text } = FAILURES[err.failure];
        throw new ToolError(kind, mcpText(text, { SERVER: source.server, TOOL: qualifiedName, REASON: err.message }));
      }
    },
  };
}

const FAILURES: Record<McpCallFailure, { kind: ToolErrorKind; text: McpTextName }> = {
  unavailable: { kind: 'other', text: 'error_unavailable' },
  timeout: { kind: 'timeout', text: 'error_timeout' },
  crashed: { kind: 'other', text: 'error_crashed' },
  interrupted: { kind: 'other', text: 'error_interrupted' },
  protocol: { kind: 'other', text: 'error_protocol' },
};

/** At most 1,024 characters, cut at a sentence or word end when one is near. */
export function trimDescription(text: string): string {
  const clean = text.trim();
  if (clean.length <= MAX_DESCRIPTION_CHARS) return clean;
  const cut = clean.slice(0, MAX_DESCRIPTION_CHARS - 1);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('\n'));
  return `${end > MAX_DESCRIPTION_CHARS * 0.6 ? cut.slice(0, end + 1) : cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : cut.length)}…`;
}
