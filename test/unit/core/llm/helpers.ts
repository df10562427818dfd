// Shared by the provider tests: both wire formats through the fake provider and the real SDKs.
import { createProvider } from '../../../../src/core/llm/create-provider';
import type { LlmProvider, ProviderEvent, ProviderRequest } from '../../../../src/core/llm/provider';
import type { RetryPolicy } from '../../../../src/core/llm/retry';
import type { FakeProvider } from '../../../fixtures/fake-provider';

export const WIRES = ['openai', 'anthropic'] as const;
export type Wire = (typeof WIRES)[number];

/** Backoff small enough for a fast suite; retry-after waits stay real. */
export const FAST_RETRY: Partial<RetryPolicy> = { baseDelayMs: 2, maxDelayMs: 10 };

export function providerFor(wire: Wire, fake: FakeProvider, retry: Partial<RetryPolicy> = FAST_RETRY, maxAttempts?: number): LlmProvider {
  return createProvider(
    { provider: wire, model: 'fake-model', apiKey: 'test-key', baseUrl: wire === 'openai' ? fake.openaiBaseUrl : fake.anthropicBaseUrl, maxAttempts },
    { retry },
  );
}

export function request(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return { model: 'fake-model', messages: [{ role: 'user', content: 'hello' }], tools: [], ...overrides };
}

export async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

/** What a consumer keeps: the text streamed after the last retry event. */
export function finalText(events: ProviderEvent[]): string {
  let text = '';
  for (const e of events) {
    if (e.type === 'retry') text = '';
    else if (e.type === 'text') text += e.delta;
  }
  return text;
}

export function retries(events: ProviderEvent[]): Array<Extract<ProviderEvent, { type: 'retry' }>> {
  // The facts of each retry; its `retryNow` handle is checked by the tests that press it.
  return events
    .filter((e): e is Extract<ProviderEvent, { type: 'retry' }> => e.type === 'retry')
    .map(({ retryNow: _handle, ...facts }) => facts);
}
