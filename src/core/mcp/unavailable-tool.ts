import * as z from 'zod';
import { ToolError, type Tool, type ToolErrorKind } from '../tools/tool';
import type { ToolRegistry } from '../tools/registry';

/**
 * What a direct call of `mcp__<server>__<tool>` finds when that tool cannot be had (the server is
 * disabled or failed to start, or has no such tool): a one-shot stand-in that answers the call with
 * the reason, typed so the model can act on it, and then leaves the registry again.
 */
export function unavailableTool(registry: ToolRegistry, name: string, kind: ToolErrorKind, message: string): Tool {
  return {
    name,
    category: 'meta',
    // Nothing runs: no approval to ask, and plan mode may hear why too.
    readOnly: true,
    deferred: true,
    schema: z.unknown(),
    description: message,
    parameters: { type: 'object', properties: {} },
    async run() {
      registry.unregister(name);
      throw new ToolError(kind, message);
    },
  };
}
