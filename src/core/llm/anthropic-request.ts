// Builds the body of an Anthropic Messages request from a provider-neutral ProviderRequest:
// system blocks (prompt caching), alternating turns, tools, and extended thinking with the thinking
// blocks the API wants back during a tool-use loop.
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  RedactedThinkingBlockParam,
  TextBlockParam,
  ThinkingBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import { toolArgumentsObject, type Message } from '../messages';
import type { ProviderRequest } from './provider';

export const DEFAULT_MAX_TOKENS = 8192;
/** The API's floor for `thinking.budget_tokens`. */
export const MIN_THINKING_BUDGET = 1024;

export type ThinkingBlock = ThinkingBlockParam | RedactedThinkingBlockParam;

/**
 * The thinking blocks of recent answers that called tools, keyed by the answer's first tool_use id.
 *
 * With extended thinking on, Anthropic requires the assistant turn that called a tool to be sent back
 * starting with its signed thinking block(s), unmodified, while that tool-use loop continues. Our
 * provider-neutral messages have no place for those opaque blocks, so the provider keeps them here and
 * puts them back when it sees the same tool_use id again. Bounded: only the current loop needs them.
 */
export class ThinkingMemory {
  private readonly byToolUseId = new Map<string, ThinkingBlock[]>();

  constructor(private readonly capacity = 256) {}

  remember(toolUseId: string, blocks: ThinkingBlock[]): void {
    if (blocks.length === 0) return;
    this.byToolUseId.delete(toolUseId);
    this.byToolUseId.set(toolUseId, blocks);
    while (this.byToolUseId.size > this.capacity) {
      const oldest = this.byToolUseId.keys().next().value;
      if (oldest === undefined) break;
      this.byToolUseId.delete(oldest);
    }
  }

  recall(toolUseId: string): ThinkingBlock[] | undefined {
    return this.byToolUseId.get(toolUseId);
  }
}

export function buildAnthropicRequest(request: ProviderRequest, memory: ThinkingMemory): MessageCreateParamsStreaming {
  const wantThinking = request.reasoning !== undefined;
  let messages = toAnthropicMessages(request.messages, wantThinking ? memory : undefined);
  // Thinking can only be turned on if every tool-using answer of the current turn starts with its
  // thinking block (they are missing after a resume, or when the answer came from another model);
  // otherwise the call goes without thinking, which the API accepts.
  const thinking = wantThinking && currentTurnHasThinking(messages);
  if (wantThinking && !thinking) messages = toAnthropicMessages(request.messages, undefined);

  const maxTokens = request.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
  const budget = Math.max(MIN_THINKING_BUDGET, Math.floor(request.reasoning?.budgetTokens ?? 0));
  const system = systemBlocks(request);
  return {
    model: request.model,
    // The budget counts against max_tokens and must stay below it: the answer gets its own room on top.
    max_tokens: thinking && maxTokens <= budget ? budget + maxTokens : maxTokens,
    system: system.length > 0 ? system : undefined,
    messages,
    tools: request.tools.length > 0 ? request.tools.map(toAnthropicTool) : undefined,
    thinking: thinking ? { type: 'enabled', budget_tokens: budget } : undefined,
    stream: true,
  };
}

/**
 * `systemParts`: the stable part carries the cache breakpoint, the dynamic part follows uncached.
 * Without it, the system messages in order, with one breakpoint on the last (it caches the prefix).
 */
export function systemBlocks(request: ProviderRequest): TextBlockParam[] {
  if (request.systemParts) {
    const { stable, dynamic } = request.systemParts;
    const blocks: TextBlockParam[] = [];
    if (stable) blocks.push({ type: 'text', text: stable, cache_control: { type: 'ephemeral' } });
    if (dynamic) blocks.push({ type: 'text', text: dynamic });
    return blocks;
  }
  const blocks: TextBlockParam[] = request.messages
    .filter((m) => m.role === 'system' && m.content.length > 0)
    .map((m) => ({ type: 'text', text: m.content }));
  const last = blocks[blocks.length - 1];
  if (last) last.cache_control = { type: 'ephemeral' };
  return blocks;
}

function toAnthropicTool(tool: ProviderRequest['tools'][number]): Tool {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters as Tool['input_schema'] };
}

/** Anthropic wants alternating user/assistant turns, with tool results as user content blocks. */
export function toAnthropicMessages(messages: Message[], thinking?: ThinkingMemory): MessageParam[] {
  const out: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role && Array.isArray(last.content)) {
      // A thinking block must lead its assistant message: merged turns keep thinking first.
      const lead = blocks.filter(isThinking);
      const rest = blocks.filter((b) => !isThinking(b));
      const firstOther = last.content.findIndex((b) => !isThinking(b));
      if (lead.length > 0) last.content.splice(firstOther < 0 ? last.content.length : firstOther, 0, ...lead);
      last.content.push(...rest);
    } else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'user') {
      // Vision input: image blocks first, then the text (the order Anthropic recommends).
      const images = (m.images ?? []).map((image): ContentBlockParam => ({ type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.data } }));
      push('user', [...images, { type: 'text', text: m.content }]);
    }
    else if (m.role === 'tool') {
      push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content, is_error: m.isError }]);
    } else {
      const first = m.toolCalls[0];
      const blocks: ContentBlockParam[] = [...((first && thinking?.recall(first.id)) ?? [])];
      if (m.content) blocks.push({ type: 'text', text: m.content });
      for (const c of m.toolCalls) {
        blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: toolArgumentsObject(c.arguments) });
      }
      if (blocks.length > 0) push('assistant', blocks);
    }
  }
  return out;
}

function isThinking(block: ContentBlockParam): boolean {
  return block.type === 'thinking' || block.type === 'redacted_thinking';
}

/** The current turn is everything after the last user message that is not only tool results. */
function currentTurnHasThinking(messages: MessageParam[]): boolean {
  let start = 0;
  messages.forEach((m, i) => {
    const blocks = Array.isArray(m.content) ? m.content : [{ type: 'text' as const, text: m.content }];
    if (m.role === 'user' && blocks.some((b) => b.type !== 'tool_result')) start = i + 1;
  });
  return messages.slice(start).every((m) => {
    if (m.role !== 'assistant' || !Array.isArray(m.content)) return true;
    const usesTools = m.content.some((b) => b.type === 'tool_use');
    const first = m.content[0];
    return !usesTools || (first !== undefined && isThinking(first));
  });
}

