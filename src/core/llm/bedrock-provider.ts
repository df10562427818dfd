// Claude on Amazon Bedrock: Anthropic's AnthropicBedrock client (requests signed with SigV4, or a
// Bedrock API key as a bearer token; answers read from AWS's event stream) behind the same Messages
// mapping as Anthropic's (AnthropicProvider, given this client).
import type { CloudSettings } from '../config/cloud-settings';
import { CLOUD_SETTING_DEFAULTS } from '../config/cloud-settings';
import { anthropicSdk } from '../lazy-libraries';
import { AnthropicProvider } from './anthropic-provider';
import type { RetryPolicy } from './retry';
import { sdkFetch } from './sdk-fetch';

export interface BedrockProviderOptions {
  /** A Bedrock API key (AWS_BEARER_TOKEN_BEDROCK); without it the AWS credentials sign the request. */
  apiKey?: string;
  /** Overrides https://bedrock-runtime.<region>.amazonaws.com (a VPC endpoint, a test server). */
  baseUrl?: string;
  cloud?: CloudSettings;
  retry?: Partial<RetryPolicy>;
}

export function createBedrockProvider(options: BedrockProviderOptions): AnthropicProvider {
  const credentials = options.cloud?.awsCredentials;
  const Bedrock = anthropicSdk().AnthropicBedrock;
  const common = {
    awsRegion: options.cloud?.awsRegion ?? CLOUD_SETTING_DEFAULTS['bedrock.region'],
    ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
    // null, not undefined: the SDK would read AWS_BEARER_TOKEN_BEDROCK itself, behind the host's back.
    apiKey: options.apiKey ?? null,
    maxRetries: 0,
    fetch: sdkFetch,
  };
  // Given explicitly: the CLI holds secret variables out of process.env, where the SDK would look.
  // Neither given: the SDK's own chain (SSO and assumed-role profiles), where it is installed.
  const client = credentials
    ? new Bedrock({ ...common, awsAccessKey: credentials.accessKeyId, awsSecretKey: credentials.secretAccessKey, awsSessionToken: credentials.sessionToken ?? null })
    : new Bedrock(common);
  return new AnthropicProvider({ apiKey: '', client, id: 'bedrock', label: 'Amazon Bedrock', ...(options.retry ? { retry: options.retry } : {}) });
}
