import type { LlmProvider, ProviderEvent, ProviderRequest } from './provider';

/**
 * `provider`, calling `onAnswer` when a call's first event arrives (its request has reached the
 * server) or the call ends without one (failed or stopped). A callback that throws is ignored.
 */
export function signalAnswers(provider: LlmProvider, onAnswer: () => void): LlmProvider {
  const signal = () => {
    try {
      onAnswer();
    } catch {
      // signalling never breaks a call
    }
  };
  return {
    id: provider.id,
    async *stream(request: ProviderRequest, abort: AbortSignal): AsyncIterable<ProviderEvent> {
      let signalled = false;
      try {
        for await (const event of provider.stream(request, abort)) {
          if (!signalled) {
            signalled = true;
            signal();
          }
          yield event;
        }
      } finally {
        if (!signalled) signal();
      }
    },
  };
}
