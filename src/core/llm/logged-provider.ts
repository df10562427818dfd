// Every model call as a line of the log: which provider and model, why, the tokens, how long it took,
// its retries and how it ended. Never the key (the logger masks it, told here), and the messages only
// at trace, where a user asks for them.
import type { Logger } from '../logger';
import type { LlmProvider, ProviderEvent, ProviderRequest, TokenUsage } from './provider';
import { ProviderError } from './provider-error';

export interface LoggedProviderOptions {
  /** The provider kind for the line (openai, anthropic, openai-compatible). */
  provider: string;
  /** The endpoint, when not the vendor's default (a key never rides in it: the logger masks query keys). */
  baseUrl?: string;
  /** The configured key: masked in every line. */
  apiKey?: string;
}

/** `provider`, writing one line per call (and one per retry) to `log`. */
export function loggedProvider(provider: LlmProvider, log: Logger, options: LoggedProviderOptions): LlmProvider {
  log.redact(options.apiKey);
  return {
    id: provider.id,
    async *stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      const started = Date.now();
      const base = { provider: options.provider, model: request.model, purpose: request.purpose, baseUrl: options.baseUrl };
      if (log.enabled('trace')) log.trace('provider request content', { ...base, messages: JSON.stringify(request.messages), tools: request.tools.map((t) => t.name).join(',') });
      let attempts = 1;
      let usage: TokenUsage | undefined;
      let firstTokenMs: number | undefined;
      let outcome: { status: string; error?: string; errorKind?: string; httpStatus?: number } = { status: 'stopped' };
      try {
        for await (const event of provider.stream(request, signal)) {
          if (event.type === 'retry') {
            attempts = event.attempt;
            usage = undefined;
            log.warn('provider retry', { ...base, attempt: event.attempt, maxAttempts: event.maxAttempts, delayMs: event.delayMs, reason: event.reason });
          } else if (event.type === 'usage') usage = event.usage;
          else if (firstTokenMs === undefined && event.type !== 'thinking') firstTokenMs = Date.now() - started;
          yield event;
        }
        outcome = { status: 'ok' };
      } catch (err) {
        outcome = describeFailure(err);
        throw err;
      } finally {
        const line = { ...base, inputTokens: usage?.promptTokens, cachedTokens: usage?.cachedTokens, outputTokens: usage?.outputTokens, latencyMs: Date.now() - started, firstTokenMs, attempts, ...outcome };
        if (outcome.status === 'error') log.error('provider request', line);
        else log.info('provider request', line);
      }
    },
  };
}

function describeFailure(err: unknown): { status: string; error?: string; errorKind?: string; httpStatus?: number } {
  if (err instanceof ProviderError) {
    if (err.kind === 'aborted') return { status: 'stopped' };
    return { status: 'error', errorKind: err.kind, httpStatus: err.status, error: err.message };
  }
  return { status: 'error', error: err instanceof Error ? err.message : String(err) };
}
