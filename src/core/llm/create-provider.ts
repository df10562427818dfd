import type { ProviderKind, ProviderSettings } from '../config/provider-settings';
import { PROVIDER_LABELS } from '../config/provider-settings';
import { AnthropicProvider } from './anthropic-provider';
import { OpenAiProvider } from './openai-provider';
import type { LlmProvider } from './provider';
import type { RetryPolicy } from './retry';

/** Thrown when the user has not configured a key; each host words the fix in its own terms. */
export class MissingApiKeyError extends Error {
  constructor(readonly provider: ProviderKind) {
    super(`No API key is set for ${PROVIDER_LABELS[provider]}.`);
    this.name = 'MissingApiKeyError';
  }
}

export interface CreateProviderOptions {
  /** Retry policy overrides (tests shrink the backoff); `settings.maxAttempts` wins over `retry.maxAttempts`. */
  retry?: Partial<RetryPolicy>;
}

/** Local OpenAI-compatible servers (Ollama, vLLM, LM Studio) usually accept any key. */
const KEYLESS_PLACEHOLDER = 'not-needed';

export function createProvider(settings: ProviderSettings, options: CreateProviderOptions = {}): LlmProvider {
  const retry: Partial<RetryPolicy> = { ...options.retry, ...(settings.maxAttempts !== undefined ? { maxAttempts: settings.maxAttempts } : {}) };
  switch (settings.provider) {
    case 'openai':
      if (!settings.apiKey) throw new MissingApiKeyError('openai');
      return new OpenAiProvider({ apiKey: settings.apiKey, baseUrl: settings.baseUrl, retry });
    case 'openai-compatible':
      return new OpenAiProvider({
        apiKey: settings.apiKey ?? KEYLESS_PLACEHOLDER,
        baseUrl: settings.baseUrl,
        label: settings.baseUrl ? `the model server at ${settings.baseUrl}` : PROVIDER_LABELS['openai-compatible'],
        retry,
      });
    case 'anthropic':
      if (!settings.apiKey) throw new MissingApiKeyError('anthropic');
      return new AnthropicProvider({ apiKey: settings.apiKey, baseUrl: settings.baseUrl, retry });
  }
}
