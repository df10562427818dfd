// Gemini and OpenRouter: clouds that speak OpenAI's Chat Completions at their own address, so
// OpenAiProvider serves them with a client pointed there (and, for OpenRouter, its app headers).
import { OFFICIAL_BASE_URLS } from '../config/provider-settings';
import { createOpenAiClient } from './openai-client';
import { OpenAiProvider } from './openai-provider';
import type { RetryPolicy } from './retry';

export interface CompatibleCloudOptions {
  apiKey: string;
  /** Overrides the official endpoint (a proxy, a test server). */
  baseUrl?: string;
  retry?: Partial<RetryPolicy>;
}

/**
 * OpenRouter's attribution headers (optional for it, sent so the requests are attributed to OpenDev
 * rather than to an unnamed app). Neither carries anything about the user.
 */
export const OPENROUTER_HEADERS = {
  'HTTP-Referer': 'https://marketplace.visualstudio.com/items?itemName=opendev.opendev',
  'X-Title': 'OpenDev',
} as const;

export function createGeminiProvider(options: CompatibleCloudOptions): OpenAiProvider {
  const baseURL = options.baseUrl ?? OFFICIAL_BASE_URLS.gemini!;
  const client = createOpenAiClient({ apiKey: options.apiKey, baseUrl: baseURL, label: 'Gemini' });
  return new OpenAiProvider({ client, id: 'gemini', ...(options.retry ? { retry: options.retry } : {}) });
}

export function createOpenRouterProvider(options: CompatibleCloudOptions): OpenAiProvider {
  const baseURL = options.baseUrl ?? OFFICIAL_BASE_URLS.openrouter!;
  const client = createOpenAiClient({ apiKey: options.apiKey, baseUrl: baseURL, label: 'OpenRouter', defaultHeaders: OPENROUTER_HEADERS });
  return new OpenAiProvider({ client, id: 'openrouter', ...(options.retry ? { retry: options.retry } : {}) });
}
