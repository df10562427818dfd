import type { CallPurpose } from './call-purpose';
import type { LlmProvider, ProviderEvent, ProviderRequest, TokenUsage } from './provider';

/** One model call as an observer sees it once it has ended (answered, failed or stopped). */
export interface ObservedCall {
  /** Why it was made; undefined only for a caller that bypasses callModel. */
  purpose: CallPurpose | undefined;
  model: string;
  /** HTTP requests the call took: 1, plus one per retry. */
  requests: number;
  /** What the API reported for the attempt that answered (undefined when none did). */
  usage: TokenUsage | undefined;
}

export type ModelCallObserver = (call: ObservedCall) => void;

/** `provider`, telling `observe` about every call it makes. An observer that throws is ignored. */
export function observedProvider(provider: LlmProvider, observe: ModelCallObserver): LlmProvider {
  return {
    id: provider.id,
    async *stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
      let requests = 1;
      let usage: TokenUsage | undefined;
      try {
        for await (const event of provider.stream(request, signal)) {
          if (event.type === 'retry') {
            requests++;
            usage = undefined;
          } else if (event.type === 'usage') usage = event.usage;
          yield event;
        }
      } finally {
        try {
          observe({ purpose: request.purpose, model: request.model, requests, usage });
        } catch {
          // observing never breaks a call
        }
      }
    },
  };
}
