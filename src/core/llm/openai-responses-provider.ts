// OpenAI's Responses API behind the LlmProvider contract, for the models that prefer it
// (capabilities/openai-api.ts). Stateless on OpenAI's side (`store: false`): every request carries
// the whole conversation, a reasoning model's earlier reasoning included as encrypted items it asked
// for (`include: ["reasoning.encrypted_content"]`), and a per-session `prompt_cache_key` so
// consecutive calls of a session land where their common prefix is cached.
import type { ResponseCreateParamsStreaming } from 'openai/resources/responses/responses';
import type { LlmProvider, ProviderEvent, ProviderRequest } from './provider';
import { resolveRetryPolicy, throwIfAborted, type RetryPolicy } from './retry';
import { streamWithRetries, type OpenAiClient } from './openai-client';
import { responsesInstructions, toResponsesInput, toResponsesTool } from './openai-responses-input';
import { ResponsesStreamReader } from './openai-responses-stream';
import { openAiApiTraits } from './capabilities/openai-api';

export interface OpenAiResponsesProviderOptions {
  /** Injected: the same client serves Chat Completions, and another host may build its own (Azure). */
  client: OpenAiClient;
  retry?: Partial<RetryPolicy>;
  /** Sent as `prompt_cache_key`: one per session. */
  promptCacheKey?: string;
}

export class OpenAiResponsesProvider implements LlmProvider {
  readonly id = 'openai';
  private readonly retry: RetryPolicy;

  constructor(private readonly options: OpenAiResponsesProviderOptions) {
    this.retry = resolveRetryPolicy(options.retry);
  }

  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    return streamWithRetries(this.options.client, this.retry, signal, (callSignal) => this.call(request, callSignal));
  }

  private async *call(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const stream = await this.options.client.sdk.responses.create(this.body(request), { signal });
    const reader = new ResponsesStreamReader(request.model);
    for await (const event of stream) yield* reader.read(event);
    // The SDK ends the iteration quietly on abort: that is not a complete answer.
    throwIfAborted(signal);
    yield* reader.finish();
  }

  private body(request: ProviderRequest): ResponseCreateParamsStreaming {
    const instructions = responsesInstructions(request);
    const reasons = openAiApiTraits(request.model).reasoning;
    return {
      model: request.model,
      ...(instructions ? { instructions } : {}),
      input: toResponsesInput(request.messages, request.model),
      ...(request.tools.length > 0 ? { tools: request.tools.map(toResponsesTool) } : {}),
      ...(request.maxOutputTokens !== undefined ? { max_output_tokens: request.maxOutputTokens } : {}),
      // Nothing kept at OpenAI: the reasoning travels with the conversation instead, encrypted.
      store: false,
      ...(reasons ? { reasoning: { summary: 'auto' as const }, include: ['reasoning.encrypted_content' as const] } : {}),
      ...(this.options.promptCacheKey ? { prompt_cache_key: this.options.promptCacheKey } : {}),
      stream: true,
    };
  }
}
