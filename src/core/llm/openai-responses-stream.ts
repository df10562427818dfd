// The Responses API's streamed events as our ProviderEvents: text and reasoning-summary deltas as
// they come; tool calls and the reasoning items to carry over once the response has completed
// (a retried attempt discards what it streamed, so nothing half-built escapes); usage at the end.
import type { ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses';
import type { ProviderEvent } from './provider';
import { RESPONSES_ITEMS_API } from './openai-responses-input';

/**
 * A failure reported inside a 200 stream (`response.failed`, an `error` event, or a stream that ended
 * before `response.completed`). `status` is what the same failure answers with before a stream starts
 * (a rate limit 429, a server error 500, anything else 400), so the retry loop and the error mapping
 * treat it as they treat the HTTP error.
 */
export class ResponsesStreamError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message);
    this.name = 'ResponsesStreamError';
  }
}

function streamFailure(code: string | null | undefined, message: string): ResponsesStreamError {
  const status = code === 'rate_limit_exceeded' ? 429 : code === 'server_error' || !code ? 500 : 400;
  return new ResponsesStreamError(message, status, code ?? null);
}

interface PendingCall {
  callId: string;
  name: string;
  arguments: string;
}

export class ResponsesStreamReader {
  /** `model`: the model asked, recorded with its reasoning items. */
  constructor(private readonly model: string) {}

  /** By output index: the order the model made them in. */
  private readonly calls = new Map<number, PendingCall>();
  private readonly reasoning = new Map<number, Record<string, unknown>>();
  private lastSummary: string | undefined;
  private completed = false;

  /** The events one stream event stands for; throws on a failure the stream reports. */
  *read(event: ResponseStreamEvent): Iterable<ProviderEvent> {
    switch (event.type) {
      case 'response.output_text.delta':
        if (event.delta) yield { type: 'text', delta: event.delta };
        break;
      case 'response.reasoning_summary_text.delta': {
        // Summary parts are paragraphs of their own: a blank line between two.
        const part = `${event.item_id}#${event.summary_index}`;
        const separator = this.lastSummary !== undefined && this.lastSummary !== part ? '\n\n' : '';
        this.lastSummary = part;
        if (event.delta) yield { type: 'thinking', delta: separator + event.delta };
        break;
      }
      case 'response.output_item.added':
        if (event.item.type === 'function_call') {
          this.calls.set(event.output_index, { callId: event.item.call_id, name: event.item.name, arguments: event.item.arguments ?? '' });
        }
        break;
      case 'response.function_call_arguments.delta': {
        const call = this.calls.get(event.output_index);
        if (call) call.arguments += event.delta;
        break;
      }
      case 'response.output_item.done':
        // The finished item is authoritative over the deltas.
        if (event.item.type === 'function_call') {
          this.calls.set(event.output_index, { callId: event.item.call_id, name: event.item.name, arguments: event.item.arguments });
        } else if (event.item.type === 'reasoning') {
          this.reasoning.set(event.output_index, reasoningToKeep(event.item));
        }
        break;
      case 'response.completed':
      case 'response.incomplete':
        // Incomplete (the output limit, a content filter) still ends the answer, as a length stop does on Chat Completions.
        this.completed = true;
        if (event.response.usage) yield { type: 'usage', usage: toTokenUsage(event.response.usage) };
        break;
      case 'response.failed': {
        const error = event.response.error;
        throw streamFailure(error?.code, error?.message ?? 'the response failed');
      }
      case 'error':
        throw streamFailure(event.code, event.message);
      default:
        break;
    }
  }

  /** After the stream: the tool calls in order, then the reasoning items to send back next time. */
  *finish(): Iterable<ProviderEvent> {
    if (!this.completed) throw streamFailure('server_error', 'the stream ended before the response was complete');
    for (const [, call] of [...this.calls.entries()].sort(([a], [b]) => a - b)) {
      yield { type: 'tool_call', call: { id: call.callId, name: call.name, arguments: call.arguments } };
    }
    const items = [...this.reasoning.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
    if (items.length > 0) yield { type: 'provider_items', items: { api: RESPONSES_ITEMS_API, model: this.model, items } };
  }
}

/** What the next request needs of a reasoning item: its id, summary and encrypted content (not its status). */
function reasoningToKeep(item: { id: string; summary: unknown[]; encrypted_content?: string | null }): Record<string, unknown> {
  return { type: 'reasoning', id: item.id, summary: item.summary, ...(item.encrypted_content ? { encrypted_content: item.encrypted_content } : {}) };
}

function toTokenUsage(usage: ResponseUsage): { promptTokens: number; cachedTokens: number; outputTokens: number; reasoningTokens?: number } {
  const reasoning = usage.output_tokens_details?.reasoning_tokens ?? 0;
  return {
    promptTokens: usage.input_tokens,
    cachedTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    outputTokens: usage.output_tokens,
    ...(reasoning > 0 ? { reasoningTokens: reasoning } : {}),
  };
}
