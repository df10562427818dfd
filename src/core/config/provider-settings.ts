import * as z from 'zod';

import { CloudSettingsSchema } from './cloud-settings';

/** The providers the core builds by itself: every one a front end without an editor (the CLI) can use. */
export const STANDALONE_PROVIDER_KINDS = ['openai', 'anthropic', 'openai-compatible', 'azure-openai', 'bedrock', 'vertex', 'gemini', 'openrouter'] as const;
/**
 * `vscode-lm`: the models VS Code's Language Model API offers (Copilot's, other extensions'). Only the
 * VS Code host can build it (it needs the `vscode` API); the core and the CLI refuse it clearly.
 */
export const PROVIDER_KINDS = [...STANDALONE_PROVIDER_KINDS, 'vscode-lm'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export const DEFAULT_MODELS: Record<ProviderKind, string> = {
  openai: 'gpt-4.1',
  anthropic: 'claude-sonnet-4-5',
  'openai-compatible': 'llama3.1',
  // Azure: the deployment's name (opendev.azure.deployment, when set, wins for the URL).
  'azure-openai': 'gpt-4.1',
  // Bedrock serves the newer Claude models through cross-region inference profiles (the `us.` prefix).
  bedrock: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  vertex: 'claude-sonnet-4-5@20250929',
  gemini: 'gemini-2.5-pro',
  openrouter: 'anthropic/claude-sonnet-4.5',
  // The first model the Language Model API offers; a model's id, family or vendor/family picks one.
  'vscode-lm': 'auto',
};

/** The clouds' fixed endpoints, for the providers whose address the user does not choose (baseUrl overrides it, for a proxy or a test). */
export const OFFICIAL_BASE_URLS: Partial<Record<ProviderKind, string>> = {
  gemini: 'https://generativelanguage.googleapis.com/v1beta/openai/',
  openrouter: 'https://openrouter.ai/api/v1',
};

/**
 * Which OpenAI API serves provider `openai`: `auto` follows the model (llm/capabilities/openai-api.ts:
 * reasoning models through the Responses API, the others through Chat Completions).
 */
export const OPENAI_APIS = ['auto', 'chat', 'responses'] as const;
export type OpenAiApi = (typeof OPENAI_APIS)[number];
/** Where the CLI reads `openai.api` from (the VS Code setting is `opendev.openai.api`, the flag `--openai-api`). */
export const OPENAI_API_ENV = 'OPENDEV_OPENAI_API';

/** What a host resolves from its own settings and secrets before it can build a provider. */
export const ProviderSettingsSchema = z.object({
  provider: z.enum(PROVIDER_KINDS),
  model: z.string().trim().min(1),
  baseUrl: z.url().optional(),
  apiKey: z.string().min(1).optional(),
  /** Total attempts per model call, retries included (429, 5xx, dropped connections). Default 4. */
  maxAttempts: z.number().int().min(1).max(10).optional(),
  /** The model's context window in tokens, for models the capability catalogue does not know (local servers). */
  contextWindow: z.number().int().min(1_000).max(10_000_000).optional(),
  /**
   * An embeddings model on the same endpoint (OpenAI and OpenAI-compatible only), e.g.
   * `text-embedding-3-small`, to match playbook bullets to the query. Unset: a local word-based
   * embedding is used, which works offline.
   */
  embeddingModel: z.string().trim().min(1).optional(),
  /** Provider `openai` only: Chat Completions or the Responses API; unset is `auto`. */
  openaiApi: z.enum(OPENAI_APIS).optional(),
  /** Azure, Bedrock and Vertex: their non-secret settings and the credentials the host found (cloud-settings.ts). */
  cloud: CloudSettingsSchema.optional(),
});
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>;

/** The environment variables the CLI reads, per provider (the SDKs' own conventions). */
export const PROVIDER_ENV: Record<ProviderKind, { apiKey: string; baseUrl: string }> = {
  openai: { apiKey: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  anthropic: { apiKey: 'ANTHROPIC_API_KEY', baseUrl: 'ANTHROPIC_BASE_URL' },
  'openai-compatible': { apiKey: 'OPENAI_API_KEY', baseUrl: 'OPENAI_BASE_URL' },
  // The SDKs' own names: the openai package's Azure client, Anthropic's Bedrock and Vertex clients.
  'azure-openai': { apiKey: 'AZURE_OPENAI_API_KEY', baseUrl: 'AZURE_OPENAI_ENDPOINT' },
  // A Bedrock API key (optional: AWS credentials sign the request otherwise, see aws-credentials.ts).
  bedrock: { apiKey: 'AWS_BEARER_TOKEN_BEDROCK', baseUrl: 'ANTHROPIC_BEDROCK_BASE_URL' },
  // An OAuth access token (optional: Application Default Credentials otherwise).
  vertex: { apiKey: 'GOOGLE_OAUTH_ACCESS_TOKEN', baseUrl: 'ANTHROPIC_VERTEX_BASE_URL' },
  gemini: { apiKey: 'GEMINI_API_KEY', baseUrl: 'GEMINI_BASE_URL' },
  openrouter: { apiKey: 'OPENROUTER_API_KEY', baseUrl: 'OPENROUTER_BASE_URL' },
  // No key and no address: VS Code holds the model's credentials (the CLI refuses this provider).
  'vscode-lm': { apiKey: '', baseUrl: '' },
};

/** The default number of attempts per model call (the first one and three retries). */
export const DEFAULT_MAX_ATTEMPTS = 4;

export const PROVIDER_LABELS: Record<ProviderKind, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'the OpenAI-compatible server',
  'azure-openai': 'Azure OpenAI',
  bedrock: 'Amazon Bedrock',
  vertex: 'Google Vertex AI',
  gemini: 'Gemini',
  openrouter: 'OpenRouter',
  'vscode-lm': "VS Code's language models",
};

/** Providers that work without a key of their own: a local server, or a cloud whose credentials come from elsewhere (AWS's, Google's). */
export const KEY_OPTIONAL: ReadonlySet<ProviderKind> = new Set(['openai-compatible', 'bedrock', 'vertex']);
