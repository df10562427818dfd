import Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageParam,
  RawMessageStreamEvent,
  TextBlockParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { Message } from '../messages';
import type { LlmProvider, ProviderEvent, ProviderRequest, TokenUsage } from './provider';
import { toProviderError } from './provider-error';

export interface AnthropicProviderOptions {
  apiKey: string;
  baseUrl?: string;
  maxRetries?: number;
}

const DEFAULT_MAX_TOKENS = 8192;

/** Anthropic Messages API: tool_use blocks, thinking deltas, prompt caching on the system prompt. */
export class AnthropicProvider implements LlmProvider {
  readonly id = 'anthropic';
  private readonly client: Anthropic;

  constructor(options: AnthropicProviderOptions) {
    this.client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      maxRetries: options.maxRetries ?? 2,
    });
  }

  async *stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    try {
      const system = request.messages
        .filter((m) => m.role === 'system')
        .map((m): TextBlockParam => ({ type: 'text', text: m.content, cache_control: { type: 'ephemeral' } }));
      const stream = await this.client.messages.create(
        {
          model: request.model,
          max_tokens: request.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
          system: system.length > 0 ? system : undefined,
          messages: toAnthropicMessages(request.messages),
          tools: request.tools.length > 0 ? request.tools.map(toAnthropicTool) : undefined,
          stream: true,
        },
        { signal },
      );
      const state = new StreamState();
      for await (const event of stream) yield* state.handle(event);
      yield { type: 'usage', usage: state.usage };
    } catch (err) {
      throw toProviderError(
        err,
        { abort: Anthropic.APIUserAbortError, connection: Anthropic.APIConnectionError },
        'Anthropic',
        this.client.baseURL,
      );
    }
  }
}

/** Tracks the open content blocks: tool inputs arrive as JSON fragments until the block stops. */
class StreamState {
  private readonly toolBlocks = new Map<number, { id: string; name: string; json: string }>();
  readonly usage: TokenUsage = { promptTokens: 0, cachedTokens: 0, outputTokens: 0 };

  *handle(event: RawMessageStreamEvent): Iterable<ProviderEvent> {
    switch (event.type) {
      case 'message_start': {
        const u = event.message.usage;
        this.usage.cachedTokens = u.cache_read_input_tokens ?? 0;
        // Anthropic counts cached and newly cached tokens apart from input_tokens.
        this.usage.promptTokens = u.input_tokens + this.usage.cachedTokens + (u.cache_creation_input_tokens ?? 0);
        this.usage.outputTokens = u.output_tokens;
        return;
      }
      case 'message_delta':
        this.usage.outputTokens = event.usage.output_tokens;
        return;
      case 'content_block_start':
        if (event.content_block.type === 'tool_use') {
          const b = event.content_block;
          this.toolBlocks.set(event.index, { id: b.id, name: b.name, json: '' });
        }
        return;
      case 'content_block_delta': {
        const d = event.delta;
        if (d.type === 'text_delta') yield { type: 'text', delta: d.text };
        else if (d.type === 'thinking_delta') yield { type: 'thinking', delta: d.thinking };
        else if (d.type === 'input_json_delta') {
          const block = this.toolBlocks.get(event.index);
          if (block) block.json += d.partial_json;
        }
        return;
      }
      case 'content_block_stop': {
        const block = this.toolBlocks.get(event.index);
        if (block) {
          this.toolBlocks.delete(event.index);
          yield { type: 'tool_call', call: { id: block.id, name: block.name, arguments: block.json || '{}' } };
        }
        return;
      }
      default:
        return;
    }
  }
}

function toAnthropicTool(tool: ProviderRequest['tools'][number]): Tool {
  return { name: tool.name, description: tool.description, input_schema: tool.parameters as Tool['input_schema'] };
}

/** Anthropic wants alternating user/assistant turns, with tool results as user content blocks. */
function toAnthropicMessages(messages: Message[]): MessageParam[] {
  const out: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'user') push('user', [{ type: 'text', text: m.content }]);
    else if (m.role === 'tool') {
      push('user', [{ type: 'tool_result', tool_use_id: m.toolCallId, content: m.content, is_error: m.isError }]);
    } else {
      const blocks: ContentBlockParam[] = [];
      if (m.content) blocks.push({ type: 'text', text: m.content });
      for (const c of m.toolCalls) {
        blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: parseInput(c.arguments) });
      }
      if (blocks.length > 0) push('assistant', blocks);
    }
  }
  return out;
}

function parseInput(json: string): unknown {
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}
