// Azure OpenAI: the openai package's AzureOpenAI client (its URL shape, /openai/deployments/<name>/…
// ?api-version=…, and its `api-key` header or an Entra ID bearer token) behind the same Chat
// Completions mapping as OpenAI's (OpenAiProvider, given this client).
import type { CloudSettings } from '../config/cloud-settings';
import { CLOUD_SETTING_DEFAULTS } from '../config/cloud-settings';
import { openAiSdk } from '../lazy-libraries';
import { openAiClientOf } from './openai-client';
import { OpenAiProvider } from './openai-provider';
import type { RetryPolicy } from './retry';
import { sdkFetch } from './sdk-fetch';

export interface AzureProviderOptions {
  /** The resource's endpoint, e.g. https://my-resource.openai.azure.com (opendev.baseUrl / AZURE_OPENAI_ENDPOINT). */
  endpoint: string;
  /** The resource's key; without it `cloud.azureAdToken` (Entra ID) is sent instead. */
  apiKey?: string;
  cloud?: CloudSettings;
  retry?: Partial<RetryPolicy>;
}

export function createAzureProvider(options: AzureProviderOptions): OpenAiProvider {
  const sdk = openAiSdk();
  const token = options.cloud?.azureAdToken;
  const client = new sdk.AzureOpenAI({
    endpoint: options.endpoint,
    apiVersion: options.cloud?.azureApiVersion ?? CLOUD_SETTING_DEFAULTS['azure.apiVersion'],
    // Unset: the request's model names the deployment (the SDK puts it in the URL).
    ...(options.cloud?.azureDeployment ? { deployment: options.cloud.azureDeployment } : {}),
    // A key wins; the SDK refuses both at once. With neither, createProvider has already refused.
    ...(options.apiKey ? { apiKey: options.apiKey } : { azureADTokenProvider: async () => token ?? '' }),
    maxRetries: 0,
    fetch: sdkFetch,
  });
  return new OpenAiProvider({ client: openAiClientOf(client, `Azure OpenAI at ${options.endpoint}`), id: 'azure-openai', ...(options.retry ? { retry: options.retry } : {}) });
}
