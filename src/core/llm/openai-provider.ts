import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { Message } from '../messages';
import type { LlmProvider, ProviderEvent, ProviderRequest } from './provider';
import { resolveRetryPolicy, throwIfAborted, type RetryPolicy } from './retry';
import { createOpenAiClient, imageDataUrl, streamWithRetries, systemPromptOf, type OpenAiClient, type OpenAiClientOptions } from './openai-client';

/** Either the address and key to build a client for, or a client built elsewhere (shared with the Responses provider, Azure's, one with a cloud's headers), which carries its own. */
export type OpenAiProviderOptions = (OpenAiClientOptions | { client: OpenAiClient }) & {
  /** The provider's id (`openai` by default: `azure-openai`, `gemini`, `openrouter` speak the same API). */
  id?: string;
  /** Our retry loop (the SDK's own retries are off). */
  retry?: Partial<RetryPolicy>;
};

/**
 * OpenAI Chat Completions, and every OpenAI-compatible server reached through a base URL.
 * `reasoning` is not sent: Chat Completions has no thinking budget, and compatible servers reject
 * unknown parameters; reasoning that a server streams (`reasoning_content`) still becomes `thinking`.
 */
export class OpenAiProvider implements LlmProvider {
  readonly id: string;
  private readonly client: OpenAiClient;
  private readonly retry: RetryPolicy;

  constructor(options: OpenAiProviderOptions) {
    this.id = options.id ?? 'openai';
    this.client = 'client' in options ? options.client : createOpenAiClient(options);
    this.retry = resolveRetryPolicy(options.retry);
  }

  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    return streamWithRetries(this.client, this.retry, signal, (callSignal) => this.call(request, callSignal));
  }

  private async *call(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const stream = await this.client.sdk.chat.completions.create(
      {
        model: request.model,
        messages: toOpenAiMessages(request),
        tools: request.tools.length > 0 ? request.tools.map(toOpenAiTool) : undefined,
        max_completion_tokens: request.maxOutputTokens,
        stream: true,
        stream_options: { include_usage: true },
      },
      { signal },
    );
    const calls = new ToolCallAccumulator();
    for await (const chunk of stream) {
      yield* chunkEvents(chunk, calls);
    }
    // The SDK ends the iteration quietly on abort: that is not a complete answer.
    throwIfAborted(signal);
    yield* calls.flush();
  }
}

/** With `systemParts`, one system message (stable, then dynamic) replaces the request's system messages. */
export function toOpenAiMessages(request: ProviderRequest): ChatCompletionMessageParam[] {
  if (!request.systemParts) return request.messages.map(toOpenAiMessage);
  const system = systemPromptOf(request);
  const rest = request.messages.filter((m) => m.role !== 'system').map(toOpenAiMessage);
  return system ? [{ role: 'system', content: system }, ...rest] : rest;
}

function* chunkEvents(chunk: ChatCompletionChunk, calls: ToolCallAccumulator): Iterable<ProviderEvent> {
  const delta = chunk.choices[0]?.delta;
  // OpenAI-compatible servers (DeepSeek, vLLM, Ollama) stream reasoning under this extra field.
  const reasoning = (delta as { reasoning_content?: unknown } | undefined)?.reasoning_content;
  if (typeof reasoning === 'string' && reasoning) yield { type: 'thinking', delta: reasoning };
  if (delta?.content) yield { type: 'text', delta: delta.content };
  for (const tc of delta?.tool_calls ?? []) calls.add(tc);
  if (chunk.usage) {
    yield {
      type: 'usage',
      usage: {
        promptTokens: chunk.usage.prompt_tokens,
        cachedTokens: chunk.usage.prompt_tokens_details?.cached_tokens ?? 0,
        outputTokens: chunk.usage.completion_tokens,
      },
    };
  }
}

type ToolCallDelta = NonNullable<ChatCompletionChunk['choices'][number]['delta']['tool_calls']>[number];

/** Tool calls arrive as fragments keyed by index; they are complete only when the stream ends. */
class ToolCallAccumulator {
  private readonly byIndex = new Map<number, { id: string; name: string; arguments: string }>();

  add(delta: ToolCallDelta): void {
    const entry = this.byIndex.get(delta.index) ?? { id: '', name: '', arguments: '' };
    if (delta.id) entry.id = delta.id;
    if (delta.function?.name) entry.name += delta.function.name;
    if (delta.function?.arguments) entry.arguments += delta.function.arguments;
    this.byIndex.set(delta.index, entry);
  }

  *flush(): Iterable<ProviderEvent> {
    const ordered = [...this.byIndex.entries()].sort(([a], [b]) => a - b);
    for (const [index, call] of ordered) {
      yield { type: 'tool_call', call: { ...call, id: call.id || `call_${index}` } };
    }
  }
}

function toOpenAiTool(tool: ProviderRequest['tools'][number]): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}

function toOpenAiMessage(message: Message): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      if (!message.images?.length) return { role: 'user', content: message.content };
      // Vision input: the text part, then each image as a data URL.
      return {
        role: 'user',
        content: [
          { type: 'text', text: message.content },
          ...message.images.map((image) => ({ type: 'image_url' as const, image_url: { url: imageDataUrl(image) } })),
        ],
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content || null,
        tool_calls:
          message.toolCalls.length > 0
            ? message.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              }))
            : undefined,
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}
