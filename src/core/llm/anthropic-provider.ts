import type { Anthropic } from '@anthropic-ai/sdk';
import { sdkFetch } from './sdk-fetch';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { buildAnthropicRequest, ThinkingMemory, type ThinkingBlock } from './anthropic-request';
import type { LlmProvider, ProviderEvent, ProviderRequest, TokenUsage } from './provider';
import { toProviderError, type SdkErrorClasses } from './provider-error';
import { resolveRetryPolicy, throwIfAborted, withRetries, type RetryPolicy } from './retry';
import { anthropicSdk } from '../lazy-libraries';
import { withCallSignal } from './call-signal';

/** What the provider uses of a client: the Messages API and its address (Anthropic's, Bedrock's and Vertex's clients all have them). */
export type MessagesClient = Pick<Anthropic, 'baseURL'> & { messages: Pick<Anthropic['messages'], 'create'> };

export interface AnthropicProviderOptions {
  apiKey: string;
  baseUrl?: string;
  /** A client built elsewhere (Bedrock's, Vertex's: the same Messages API); apiKey and baseUrl are then unused. */
  client?: MessagesClient;
  /** The provider's id (`anthropic` by default) and its name in error messages. */
  id?: string;
  label?: string;
  /** Our retry loop (the SDK's own retries are off). */
  retry?: Partial<RetryPolicy>;
}

/**
 * Anthropic Messages API: tool_use blocks, thinking deltas, prompt caching on the system prompt,
 * extended thinking (`reasoning`) with the signed thinking blocks replayed during tool-use loops.
 */
export class AnthropicProvider implements LlmProvider {
  readonly id: string;
  private readonly client: MessagesClient;
  private readonly label: string;
  private readonly sdkErrors: SdkErrorClasses;
  private readonly retry: RetryPolicy;
  private readonly thinking = new ThinkingMemory();

  constructor(options: AnthropicProviderOptions) {
    const sdk = anthropicSdk();
    this.id = options.id ?? 'anthropic';
    this.label = options.label ?? 'Anthropic';
    this.client = options.client ?? new sdk.Anthropic({ apiKey: options.apiKey, baseURL: options.baseUrl, maxRetries: 0, fetch: sdkFetch });
    this.sdkErrors = { abort: sdk.APIUserAbortError, connection: sdk.APIConnectionError };
    this.retry = resolveRetryPolicy(options.retry);
  }

  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    return withRetries(() => this.attempt(request, signal), {
      policy: this.retry,
      signal,
      sdk: this.sdkErrors,
      classify: (err) => toProviderError(err, this.sdkErrors, this.label, this.client.baseURL),
    });
  }

  /** One call; SDK errors propagate raw so the retry loop can read their status and headers. */
  private attempt(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    return withCallSignal(signal, (callSignal) => this.call(request, callSignal));
  }

  private async *call(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const stream = await this.client.messages.create(buildAnthropicRequest(request, this.thinking), { signal });
    const state = new StreamState();
    for await (const event of stream) yield* state.handle(event);
    // The SDK ends the iteration quietly on abort: that is not a complete answer.
    throwIfAborted(signal);
    // Only a complete answer's thinking is kept: a failed attempt's is discarded with its text.
    const firstToolUse = state.toolUseIds[0];
    if (firstToolUse) this.thinking.remember(firstToolUse, state.thinkingBlocks());
    yield { type: 'usage', usage: state.usage };
  }
}

type OpenThinking = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/** Tracks the open content blocks: tool inputs arrive as JSON fragments until the block stops. */
class StreamState {
  private readonly toolBlocks = new Map<number, { id: string; name: string; json: string }>();
  private readonly thinking = new Map<number, OpenThinking>();
  readonly toolUseIds: string[] = [];
  readonly usage: TokenUsage = { promptTokens: 0, cachedTokens: 0, outputTokens: 0 };

  /** The answer's thinking blocks in content order, as the API must get them back. */
  thinkingBlocks(): ThinkingBlock[] {
    return [...this.thinking.entries()].sort(([a], [b]) => a - b).map(([, block]) => ({ ...block }));
  }

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
      case 'content_block_start': {
        const b = event.content_block;
        if (b.type === 'tool_use') {
          this.toolBlocks.set(event.index, { id: b.id, name: b.name, json: '' });
          this.toolUseIds.push(b.id);
        } else if (b.type === 'thinking') {
          this.thinking.set(event.index, { type: 'thinking', thinking: b.thinking, signature: b.signature });
        } else if (b.type === 'redacted_thinking') {
          this.thinking.set(event.index, { type: 'redacted_thinking', data: b.data });
        }
        return;
      }
      case 'content_block_delta': {
        const d = event.delta;
        if (d.type === 'text_delta') yield { type: 'text', delta: d.text };
        else if (d.type === 'thinking_delta') {
          const block = this.thinking.get(event.index);
          if (block?.type === 'thinking') block.thinking += d.thinking;
          yield { type: 'thinking', delta: d.thinking };
        } else if (d.type === 'signature_delta') {
          const block = this.thinking.get(event.index);
          if (block?.type === 'thinking') block.signature = d.signature;
        } else if (d.type === 'input_json_delta') {
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
