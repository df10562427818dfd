import type { ToolCall } from '../messages';
import type { ToolRegistry } from '../tools/registry';
import type { ToolExecutionContext, ToolResult } from '../tools/tool';
import type { ToolLifecycle } from '../tools/tool-lifecycle';
import { bindBatchRunner, type BatchMode } from '../tools/batch-tool';

const MAX_PARALLEL = 5;

/**
 * Runs one response's tool calls: consecutive read-only calls concurrently (at most 5 at once),
 * anything that writes on its own, in order. Results come back in the order the model asked.
 */
export class ToolDispatcher {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly lifecycle: ToolLifecycle = {},
  ) {}

  async dispatch(calls: readonly ToolCall[], ctx: ToolExecutionContext): Promise<ToolResult[]> {
    bindBatchRunner(ctx, this);
    await this.resolveUnknown(calls, ctx.signal);
    const results: ToolResult[] = new Array(calls.length);
    let i = 0;
    while (i < calls.length) {
      if (!this.isReadOnly(calls[i]!)) {
        results[i] = await this.runOne(calls[i]!, ctx);
        i++;
        continue;
      }
      let end = i;
      while (end < calls.length && this.isReadOnly(calls[end]!)) end++;
      await pool(calls.slice(i, end), MAX_PARALLEL, async (call, k) => {
        results[i + k] = await this.runOne(call, ctx);
      });
      i = end;
    }
    return results;
  }

  /**
   * batch_tool's calls: each through the same per-call path as dispatch (UI events, lifecycle
   * seams, registry validation), all at once in a pool of 5 or one after another; results in order.
   */
  async runCalls(calls: readonly ToolCall[], ctx: ToolExecutionContext, mode: BatchMode): Promise<ToolResult[]> {
    await this.resolveUnknown(calls, ctx.signal);
    const results: ToolResult[] = new Array(calls.length);
    if (mode === 'serial') {
      for (let i = 0; i < calls.length; i++) results[i] = await this.runOne(calls[i]!, ctx);
    } else {
      await pool(calls, MAX_PARALLEL, async (call, k) => {
        results[k] = await this.runOne(call, ctx);
      });
    }
    return results;
  }

  /**
   * Tools not registered yet (an MCP tool called by name before its server started) are resolved
   * first, so grouping, approval and hooks see the real tool and never an unknown one.
   */
  private async resolveUnknown(calls: readonly ToolCall[], signal: AbortSignal): Promise<void> {
    const names = new Set(calls.map((c) => c.name));
    for (const name of names) await this.registry.resolve(name, signal);
  }

  /** Whether a call only reads (the registry's `readOnly`); unknown tools count as read-only. */
  isReadOnly(call: ToolCall): boolean {
    // Unknown tools fail fast in the registry, so they can join a parallel group safely.
    return this.registry.get(call.name)?.readOnly ?? true;
  }

  private async runOne(call: ToolCall, ctx: ToolExecutionContext): Promise<ToolResult> {
    ctx.ui.onToolStart({ id: call.id, name: call.name, args: call.arguments });
    let result: ToolResult;
    // A call this agent may not make at all (plan mode, its allow-list) is refused before anyone is asked.
    const refused = this.registry.refusal(call, ctx);
    const gate = refused ? { proceed: false as const, result: refused } : ((await this.lifecycle.before?.(call, ctx)) ?? { proceed: true as const, call });
    if (!gate.proceed) result = gate.result;
    else {
      result = await this.registry.execute(gate.call, ctx);
      if (gate.notes?.length) result = { ...result, output: `${gate.notes.join('\n')}\n${result.output}` };
    }
    ctx.ui.onToolEnd({ id: call.id, name: call.name }, result);
    await this.lifecycle.after?.(call, result, ctx);
    return result;
  }
}

async function pool<T>(items: readonly T[], size: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}
