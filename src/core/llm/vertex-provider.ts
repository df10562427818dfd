// Claude on Google Vertex AI: Anthropic's AnthropicVertex client (the request rewritten to
// /projects/<p>/locations/<r>/publishers/anthropic/models/<m>:streamRawPredict with a Google bearer
// token) behind the same Messages mapping as Anthropic's (AnthropicProvider, given this client).
import type { CloudSettings } from '../config/cloud-settings';
import { CLOUD_SETTING_DEFAULTS } from '../config/cloud-settings';
import { anthropicSdk } from '../lazy-libraries';
import { AnthropicProvider } from './anthropic-provider';
import type { RetryPolicy } from './retry';
import { sdkFetch } from './sdk-fetch';
import { vertexAuthClient } from './vertex-auth';

export interface VertexProviderOptions {
  /** An OAuth access token; without it, Application Default Credentials. */
  apiKey?: string;
  /** Overrides https://<region>-aiplatform.googleapis.com/v1 (a private endpoint, a test server). */
  baseUrl?: string;
  cloud?: CloudSettings;
  retry?: Partial<RetryPolicy>;
}

export function createVertexProvider(options: VertexProviderOptions): AnthropicProvider {
  const sdk = anthropicSdk();
  // A promise: the SDK takes the client through Promise.resolve() and awaits it at each call, so
  // Application Default Credentials are looked up once, and a failure is the call's (a connection
  // error, as the SDK reports it), not the provider's creation's. Handled here so it is never unhandled.
  const auth = vertexAuthClient(options.apiKey);
  auth.catch(() => undefined);
  const client = new sdk.AnthropicVertex({
    region: options.cloud?.vertexRegion ?? CLOUD_SETTING_DEFAULTS['vertex.region'],
    // null: found in the credentials (ADC), not in ANTHROPIC_VERTEX_PROJECT_ID behind the host's back.
    projectId: options.cloud?.vertexProjectId ?? null,
    ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
    authClient: auth as unknown as never,
    maxRetries: 0,
    fetch: sdkFetch,
  });
  return new AnthropicProvider({ apiKey: '', client, id: 'vertex', label: 'Google Vertex AI', ...(options.retry ? { retry: options.retry } : {}) });
}
