import type { Message, ProviderItems, ToolCall } from '../messages';
import type { CallPurpose } from './call-purpose';

/** A tool as the model sees it: name, description and a JSON schema of its arguments. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ProviderRequest {
  model: string;
  /** `system` messages here are sent as the system prompt, unless `systemParts` is given. */
  messages: Message[];
  tools: ToolSchema[];
  /**
   * The system prompt split for prompt caching: `stable` (identical across calls, cached —
   * Anthropic gets cache_control on it) and `dynamic` (changes per session or call).
   * Providers without caching join the two.
   */
  systemParts?: { stable: string; dynamic: string };
  maxOutputTokens?: number;
  /** Native extended thinking, when the model supports it (Anthropic thinking budget). */
  reasoning?: { budgetTokens: number };
  /** Why the call is made (callModel always says); never sent, for observers of the calls. */
  purpose?: CallPurpose;
}

import type { TokenUsage } from '../token-usage';

export type { TokenUsage };

export type ProviderEvent =
  | { type: 'text'; delta: string }
  | { type: 'thinking'; delta: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'usage'; usage: TokenUsage }
  /** Items the API wants back with this answer on later calls: kept on the assistant message (`providerItems`). */
  | { type: 'provider_items'; items: ProviderItems }
  /**
   * The call failed in a retryable way (408, 409, 429, 5xx, a dropped connection or cut stream) and is
   * being retried after `delayMs`: everything this call streamed so far must be discarded. `attempt`
   * is the attempt about to start (2 for the first retry) out of `maxAttempts`. `retryNow` cuts
   * this wait short (the user pressed "Retry now"): the next attempt starts at once.
   */
  | { type: 'retry'; attempt: number; maxAttempts: number; delayMs: number; reason: string; retryNow?: () => void };

/** One streaming interface for every model API. Cancellation goes through the AbortSignal. */
export interface LlmProvider {
  readonly id: string;
  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
}
