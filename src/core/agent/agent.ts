import type { LlmProvider, TokenUsage } from '../llm/provider';
import { ProviderError } from '../llm/provider-error';
import type { AssistantMessage, Message, ToolCall } from '../messages';
import type { ToolRegistry } from '../tools/registry';
import type { ToolExecutionContext } from '../tools/tool';
import type { UICallback } from '../ui';

export interface AgentOptions {
  provider: LlmProvider;
  model: string;
  tools: ToolRegistry;
  systemPrompt: string;
  workspaceRoot: string;
  /** Model calls per user turn before the agent stops and says so. */
  maxIterations?: number;
}

export type TurnResult =
  | { status: 'completed'; text: string; usage: TokenUsage }
  | { status: 'stopped'; text: string; usage: TokenUsage }
  | { status: 'iteration_limit'; text: string; usage: TokenUsage }
  | { status: 'failed'; text: string; usage: TokenUsage; error: ProviderError };

const DEFAULT_MAX_ITERATIONS = 25;

/**
 * A minimal ReAct loop: call the model with the tools, run the tools it asks for, feed the
 * results back, until it answers without tool calls. The harness grows this into the paper's
 * full executor (thinking, critique, compaction, doom-loop detection, todos).
 */
export class Agent {
  private readonly history: Message[];

  constructor(private readonly options: AgentOptions) {
    this.history = [{ role: 'system', content: options.systemPrompt }];
  }

  get messages(): readonly Message[] {
    return this.history;
  }

  async runTurn(userText: string, ui: UICallback, signal: AbortSignal): Promise<TurnResult> {
    this.history.push({ role: 'user', content: userText });
    const usage: TokenUsage = { promptTokens: 0, cachedTokens: 0, outputTokens: 0 };
    const maxIterations = this.options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    let lastText = '';

    for (let iteration = 0; iteration < maxIterations; iteration++) {
      if (signal.aborted) return { status: 'stopped', text: lastText, usage };
      const reply: AssistantMessage = { role: 'assistant', content: '', toolCalls: [] };
      try {
        for await (const event of this.options.provider.stream(
          { model: this.options.model, messages: this.history, tools: this.options.tools.schemas() },
          signal,
        )) {
          if (event.type === 'text') {
            reply.content += event.delta;
            ui.onTextDelta(event.delta);
          } else if (event.type === 'thinking') ui.onThinkingDelta?.(event.delta);
          else if (event.type === 'tool_call') reply.toolCalls.push(event.call);
          else if (event.type === 'retry') {
            reply.content = '';
            reply.toolCalls = [];
          } else {
            addUsage(usage, event.usage);
            ui.onUsage?.(event.usage);
          }
        }
        // The SDKs end a stream quietly when it is aborted mid-way, so check the signal too.
        if (signal.aborted) return this.interrupted(reply, usage);
      } catch (err) {
        const error = err instanceof ProviderError ? err : new ProviderError('server', String(err));
        if (error.kind === 'aborted' || signal.aborted) return this.interrupted(reply, usage);
        this.keepPartial(reply);
        return { status: 'failed', text: reply.content, usage, error };
      }

      this.history.push(reply);
      lastText = reply.content;
      if (reply.toolCalls.length === 0) return { status: 'completed', text: reply.content, usage };
      await this.runTools(reply.toolCalls, ui, signal);
    }
    return { status: 'iteration_limit', text: lastText, usage };
  }

  private interrupted(reply: AssistantMessage, usage: TokenUsage): TurnResult {
    this.keepPartial(reply);
    return { status: 'stopped', text: reply.content, usage };
  }

  /** Keeps what streamed so the conversation reads coherently; unfinished tool calls are dropped. */
  private keepPartial(reply: AssistantMessage): void {
    if (reply.content) this.history.push({ ...reply, toolCalls: [] });
  }

  /** Read-only calls run concurrently; the results go back in the order the model asked. */
  private async runTools(calls: ToolCall[], ui: UICallback, signal: AbortSignal): Promise<void> {
    const ctx: ToolExecutionContext = {
      workspaceRoot: this.options.workspaceRoot,
      signal,
      ui,
      agent: { name: 'main', isSubagent: false },
      todos: { list: () => [], hasOpen: () => false },
      mode: { mode: 'normal', autoApproveEdits: false },
      completion: {},
    };
    const runOne = async (call: ToolCall) => {
      ui.onToolStart({ id: call.id, name: call.name, args: call.arguments });
      const result = await this.options.tools.execute(call, ctx);
      ui.onToolEnd({ id: call.id, name: call.name }, result);
      return result;
    };
    const allReadOnly = calls.every((c) => this.options.tools.get(c.name)?.readOnly ?? true);
    const results = allReadOnly ? await Promise.all(calls.map(runOne)) : await serially(calls, runOne);
    calls.forEach((call, i) => {
      const result = results[i]!;
      this.history.push({ role: 'tool', toolCallId: call.id, name: call.name, content: result.output, isError: !result.ok });
    });
  }
}

async function serially<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) out.push(await fn(item));
  return out;
}

function addUsage(total: TokenUsage, add: TokenUsage): void {
  total.promptTokens += add.promptTokens;
  total.cachedTokens += add.cachedTokens;
  total.outputTokens += add.outputTokens;
}
