import type { Message, ToolCall } from '../messages';

/** A tool as the model sees it: name, description and a JSON schema of its arguments. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ProviderRequest {
  model: string;
  messages: Message[];
  tools: ToolSchema[];
  maxOutputTokens?: number;
}

export interface TokenUsage {
  promptTokens: number;
  cachedTokens: number;
  outputTokens: number;
}

export type ProviderEvent =
  | { type: 'text'; delta: string }
  | { type: 'thinking'; delta: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: TokenUsage };

/** One streaming interface for every model API. Cancellation goes through the AbortSignal. */
export interface LlmProvider {
  readonly id: string;
  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
}
