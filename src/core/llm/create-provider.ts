import type { ProviderKind, ProviderSettings } from '../config/provider-settings';
import { KEY_OPTIONAL, PROVIDER_LABELS } from '../config/provider-settings';
import { createAzureProvider } from './azure-provider';
import { createBedrockProvider } from './bedrock-provider';
import { createGeminiProvider, createOpenRouterProvider } from './openai-compatible-clouds';
import { createVertexProvider } from './vertex-provider';
import { AnthropicProvider } from './anthropic-provider';
import { OpenAiProvider } from './openai-provider';
import { OpenAiApiRouter } from './openai-api-router';
import { createOpenAiClient } from './openai-client';
import { OpenAiResponsesProvider } from './openai-responses-provider';
import type { LlmProvider } from './provider';
import type { RetryPolicy } from './retry';

/** Thrown when the user has not configured a key; each host words the fix in its own terms. */
export class MissingApiKeyError extends Error {
  constructor(readonly provider: ProviderKind) {
    super(`No API key is set for ${PROVIDER_LABELS[provider]}.`);
    this.name = 'MissingApiKeyError';
  }
}

/**
 * Thrown when an OpenAI-compatible server has no address: without one the SDK would fall back to
 * api.openai.com, sending the user's key and code where they did not choose. Each host names its setting.
 */
export class MissingBaseUrlError extends Error {
  constructor(readonly provider: ProviderKind) {
    super(`No base URL is set for ${PROVIDER_LABELS[provider]}.`);
    this.name = 'MissingBaseUrlError';
  }
}

/**
 * Thrown for a provider only an editor host can build (`vscode-lm` needs VS Code's Language Model
 * API): the CLI and the ACP agent have no such API and say so instead of failing obscurely.
 */
export class HostOnlyProviderError extends Error {
  constructor(readonly provider: ProviderKind) {
    super(`The provider "${provider}" (${PROVIDER_LABELS[provider]}) works only inside VS Code, through its Language Model API. Choose another provider here (openai, anthropic, openai-compatible or a cloud: azure-openai, bedrock, vertex, gemini, openrouter).`);
    this.name = 'HostOnlyProviderError';
  }
}

/**
 * What keeps a provider from being created: its key (OpenAI, Anthropic) or its server's address (an
 * OpenAI-compatible server, whose key is optional) missing; undefined when nothing does. Hosts ask
 * it before any agent exists (the chat's setup card), and createProvider throws it.
 */
export function missingProviderSetting(settings: ProviderSettings): MissingApiKeyError | MissingBaseUrlError | undefined {
  // VS Code holds the credentials of its language models (and asks the user's consent itself).
  if (settings.provider === 'vscode-lm') return undefined;
  // Azure's endpoint is the user's own resource: there is no default to fall back to.
  if (settings.provider === 'openai-compatible' || settings.provider === 'azure-openai') {
    if (!settings.baseUrl) return new MissingBaseUrlError(settings.provider);
  }
  // Azure takes an Entra ID token instead of a key; Bedrock and Vertex sign with the cloud's own credentials.
  if (settings.provider === 'azure-openai') return settings.apiKey || settings.cloud?.azureAdToken ? undefined : new MissingApiKeyError(settings.provider);
  if (KEY_OPTIONAL.has(settings.provider)) return undefined;
  return settings.apiKey ? undefined : new MissingApiKeyError(settings.provider);
}

export interface CreateProviderOptions {
  /** Retry policy overrides (tests shrink the backoff); `settings.maxAttempts` wins over `retry.maxAttempts`. */
  retry?: Partial<RetryPolicy>;
  /** The session's prompt-cache key, sent where the API takes one (OpenAI Responses: `prompt_cache_key`). */
  promptCacheKey?: string;
}

/** Local OpenAI-compatible servers (Ollama, vLLM, LM Studio) usually accept any key. */
const KEYLESS_PLACEHOLDER = 'not-needed';

export function createProvider(settings: ProviderSettings, options: CreateProviderOptions = {}): LlmProvider {
  const retry: Partial<RetryPolicy> = { ...options.retry, ...(settings.maxAttempts !== undefined ? { maxAttempts: settings.maxAttempts } : {}) };
  const missing = missingProviderSetting(settings);
  if (missing) throw missing;
  switch (settings.provider) {
    case 'openai': {
      // One client for both APIs; which one a request takes is decided per model (openai-api-router.ts).
      const client = createOpenAiClient({ apiKey: settings.apiKey!, baseUrl: settings.baseUrl });
      const responses = new OpenAiResponsesProvider({ client, retry, ...(options.promptCacheKey ? { promptCacheKey: options.promptCacheKey } : {}) });
      return new OpenAiApiRouter(settings.openaiApi, new OpenAiProvider({ client, retry }), responses);
    }
    case 'openai-compatible':
      return new OpenAiProvider({
        apiKey: settings.apiKey ?? KEYLESS_PLACEHOLDER,
        baseUrl: settings.baseUrl,
        label: `the model server at ${settings.baseUrl}`,
        retry,
      });
    case 'anthropic':
      return new AnthropicProvider({ apiKey: settings.apiKey!, baseUrl: settings.baseUrl, retry });
    case 'azure-openai':
      return createAzureProvider({ endpoint: settings.baseUrl!, ...cloudOptions(settings), retry });
    case 'bedrock':
      return createBedrockProvider({ ...cloudOptions(settings), retry });
    case 'vertex':
      return createVertexProvider({ ...cloudOptions(settings), retry });
    case 'gemini':
      return createGeminiProvider({ apiKey: settings.apiKey!, ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}), retry });
    case 'openrouter':
      return createOpenRouterProvider({ apiKey: settings.apiKey!, ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}), retry });
    case 'vscode-lm':
      // The VS Code host passes its own factory for this kind (MainAgentOptions.createProvider).
      throw new HostOnlyProviderError(settings.provider);
  }
}

function cloudOptions(settings: ProviderSettings): { apiKey?: string; baseUrl?: string; cloud?: ProviderSettings['cloud'] } {
  return {
    ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
    ...(settings.baseUrl ? { baseUrl: settings.baseUrl } : {}),
    ...(settings.cloud ? { cloud: settings.cloud } : {}),
  };
}
