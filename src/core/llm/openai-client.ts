// What the two OpenAI providers (Chat Completions and Responses) share: the official client built
// one way (our fetch, the SDK's own retries off), our retry loop with the same error mapping, and
// the request pieces both wire formats say alike (the system prompt, an image as a data URL).
// A client is built once per endpoint and handed to both; a cloud's own client (Azure's) is wrapped by openAiClientOf.
import type { OpenAI } from 'openai';
import type { ImageAttachment } from '../messages';
import { openAiSdk } from '../lazy-libraries';
import { withCallSignal } from './call-signal';
import type { ProviderEvent, ProviderRequest } from './provider';
import { toProviderError, type SdkErrorClasses } from './provider-error';
import { withRetries, type RetryPolicy } from './retry';
import { sdkFetch } from './sdk-fetch';

export interface OpenAiClient {
  sdk: OpenAI;
  /** The SDK's error classes, for the retry loop and the error mapping. */
  errors: SdkErrorClasses;
  /** Shown in error messages: "OpenAI", "the model server at …". */
  label: string;
}

export interface OpenAiClientOptions {
  apiKey: string;
  baseUrl?: string;
  label?: string;
  /** Sent with every request (OpenRouter's attribution headers). */
  defaultHeaders?: Record<string, string>;
}

export function createOpenAiClient(options: OpenAiClientOptions): OpenAiClient {
  const sdk = openAiSdk();
  const client = new sdk.OpenAI({ apiKey: options.apiKey, baseURL: options.baseUrl, defaultHeaders: options.defaultHeaders, maxRetries: 0, fetch: sdkFetch });
  return openAiClientOf(client, options.label);
}

/** A client the SDK built another way (Azure's), with the error classes and the label our retry loop needs. */
export function openAiClientOf(client: OpenAI, label = 'OpenAI'): OpenAiClient {
  const sdk = openAiSdk();
  return { sdk: client, errors: { abort: sdk.APIUserAbortError, connection: sdk.APIConnectionError }, label };
}

/**
 * One model call through our retry loop: `call` runs on a signal of its own per attempt, lets SDK
 * errors propagate raw (the loop reads their status and headers), and the final failure is mapped
 * to a ProviderError the way every provider maps it.
 */
export function streamWithRetries(
  client: OpenAiClient,
  policy: RetryPolicy,
  signal: AbortSignal,
  call: (callSignal: AbortSignal) => AsyncIterable<ProviderEvent>,
): AsyncIterable<ProviderEvent> {
  return withRetries(() => withCallSignal(signal, call), {
    policy,
    signal,
    sdk: client.errors,
    classify: (err) => toProviderError(err, client.errors, client.label, client.sdk.baseURL),
  });
}

/** The system prompt: `systemParts` (stable, then dynamic) when given, else the request's system messages; undefined when empty. */
export function systemPromptOf(request: ProviderRequest): string | undefined {
  const parts = request.systemParts
    ? [request.systemParts.stable, request.systemParts.dynamic]
    : request.messages.flatMap((m) => (m.role === 'system' ? [m.content] : []));
  const text = parts.filter((part) => part.length > 0).join('\n\n');
  return text || undefined;
}

/** Vision input as both OpenAI APIs take it. */
export function imageDataUrl(image: ImageAttachment): string {
  return `data:${image.mediaType};base64,${image.data}`;
}
