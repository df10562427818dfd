import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import type { ToolCall } from '../messages';
import { ToolError, type Tool, type ToolExecutionContext, type ToolResult } from './tool';

export type BatchMode = 'parallel' | 'serial';
export const MAX_BATCH_CALLS = 25;
/** The whole batch's output stays under this; each call gets an equal share (head and tail kept). */
const MAX_BATCH_OUTPUT_CHARS = 60_000;

/**
 * What runs a batch's calls: the agent's ToolDispatcher, so each call takes the same path as a
 * call the model makes directly (UI events, approval and hook seams, validation, plan mode).
 */
export interface BatchRunner {
  runCalls(calls: readonly ToolCall[], ctx: ToolExecutionContext, mode: BatchMode): Promise<ToolResult[]>;
}

const runners = new WeakMap<ToolExecutionContext, BatchRunner>();

/** The dispatcher registers itself for the contexts it runs tools with. */
export function bindBatchRunner(ctx: ToolExecutionContext, runner: BatchRunner): void {
  runners.set(ctx, runner);
}

const schema = z.lazy(() => z.object({
  mode: z.enum(['parallel', 'serial']).describe('parallel (5 at a time) for independent calls, else serial (in order).'),
  calls: z
    .array(
      z.object({
        tool: z.string().min(1).describe('Tool name.'),
        args: z.union([z.record(z.string(), z.unknown()), z.string()]).optional().describe('Its arguments, as for a direct call.'),
      }),
    )
    .min(1)
    .max(MAX_BATCH_CALLS)
    .describe(`At most ${MAX_BATCH_CALLS} calls.`),
}));

let batchCounter = 0;

/**
 * Several tool calls in one: in parallel (pool of 5) or one after another, as the model asks.
 * Not read-only (it may carry writes), so plan mode refuses it and the dispatcher runs it alone.
 */
export const batchTool: Tool<typeof schema> = {
  name: 'batch_tool',
  category: 'meta',
  readOnly: false,
  schema,
  // Each of its calls goes through the approval step on its own.
  approval: () => ({ kind: 'none' }),
  async run(args, ctx) {
    const nested = args.calls.findIndex((c) => c.tool === 'batch_tool');
    if (nested !== -1) {
      throw new ToolError('other', `Call ${nested + 1} is batch_tool: a batch cannot contain another batch. Put all the calls in one batch_tool call.`);
    }
    const runner = runners.get(ctx);
    if (!runner) throw new ToolError('other', 'batch_tool cannot run here (no tool dispatcher); call the tools one by one.');
    const id = `batch${++batchCounter}-${randomBytes(2).toString('hex')}`;
    const calls: ToolCall[] = args.calls.map((c, i) => ({
      id: `${id}-${i + 1}`,
      name: c.tool,
      arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args ?? {}),
    }));
    const results = await runner.runCalls(calls, ctx, args.mode);
    const failed = results.filter((r) => !r.ok).length;
    const share = Math.floor(MAX_BATCH_OUTPUT_CHARS / results.length);
    const sections = results.map((r, i) => `[${i + 1}/${results.length}] ${calls[i]!.name} ${r.ok ? '✓' : '✗'}\n${limit(r.output, share)}`);
    const head = `Batch of ${results.length} (${args.mode}): ${results.length - failed} succeeded${failed ? `, ${failed} failed` : ''}.`;
    const firstFailure = results.find((r) => !r.ok);
    return {
      ok: failed === 0,
      output: [head, ...sections].join('\n\n'),
      summary: `${failed ? '✗' : '✓'} Batch: ${results.length} calls (${args.mode})${failed ? `, ${failed} failed` : ''}`,
      ...(firstFailure ? { errorKind: firstFailure.errorKind ?? 'other' } : {}),
    };
  },
};

function limit(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n… [${text.length - 2 * half} chars omitted] …\n${text.slice(-half)}`;
}
