// The cloud providers' own settings: where an Azure OpenAI deployment, a Bedrock region or a Vertex
// project is. None is a secret (keys and tokens live in Secret Storage or the environment, never in a
// settings file), so each is an ordinary setting (`opendev.azure.apiVersion`, `azure.apiVersion` in a
// settings.json), validated here on its own, with its environment variable (the SDKs' names where
// they have one).
import * as z from 'zod';

/** Azure's dated API versions: `2024-10-21`, `2025-04-01-preview`. */
const AZURE_API_VERSION = z.string().trim().regex(/^\d{4}-\d{2}-\d{2}(-preview)?$/, 'an API version like 2024-10-21 or 2025-04-01-preview');
/** A deployment name as Azure allows it (letters, digits, `-`, `_`, `.`). */
const AZURE_DEPLOYMENT = z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'a deployment name (letters, digits, - _ .)');
/** An AWS region: `us-east-1`, `eu-central-2`, `us-gov-west-1`. */
const AWS_REGION = z.string().trim().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'an AWS region like us-east-1');
/** A Vertex location: `us-east5`, `europe-west1`, or the multi-region endpoints `global`, `us`, `eu`. */
const VERTEX_REGION = z.string().trim().regex(/^(global|us|eu|[a-z]+-[a-z]+\d+)$/, 'a Google Cloud region like us-east5, or global');
/** A Google Cloud project id: 6 to 30 lowercase letters, digits and hyphens. */
const VERTEX_PROJECT = z.string().trim().regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, 'a Google Cloud project id like my-project-123');

/** The settings, by flat key (`azure.apiVersion` is `{ "azure": { "apiVersion": … } }` in a file). */
export const CLOUD_SETTING_SCHEMAS = {
  'azure.apiVersion': AZURE_API_VERSION,
  'azure.deployment': AZURE_DEPLOYMENT,
  'bedrock.region': AWS_REGION,
  'vertex.region': VERTEX_REGION,
  'vertex.projectId': VERTEX_PROJECT,
} as const;
export type CloudSettingKey = keyof typeof CLOUD_SETTING_SCHEMAS;
export const CLOUD_SETTING_KEYS = Object.keys(CLOUD_SETTING_SCHEMAS) as CloudSettingKey[];

/** Each setting's environment variables, the first set wins (the SDKs' own names first). */
export const CLOUD_SETTING_ENV: Record<CloudSettingKey, readonly string[]> = {
  'azure.apiVersion': ['OPENAI_API_VERSION'],
  'azure.deployment': ['AZURE_OPENAI_DEPLOYMENT'],
  'bedrock.region': ['AWS_REGION', 'AWS_DEFAULT_REGION'],
  'vertex.region': ['CLOUD_ML_REGION'],
  'vertex.projectId': ['ANTHROPIC_VERTEX_PROJECT_ID', 'GOOGLE_CLOUD_PROJECT'],
};

/** The provider each setting is for. */
export const CLOUD_SETTING_PROVIDER: Record<CloudSettingKey, 'azure-openai' | 'bedrock' | 'vertex'> = {
  'azure.apiVersion': 'azure-openai',
  'azure.deployment': 'azure-openai',
  'bedrock.region': 'bedrock',
  'vertex.region': 'vertex',
  'vertex.projectId': 'vertex',
};

/** What /config shows for one not set. */
export const CLOUD_SETTING_DEFAULTS: Record<CloudSettingKey, string> = {
  'azure.apiVersion': '2024-10-21',
  'azure.deployment': 'the model',
  'bedrock.region': 'us-east-1',
  'vertex.region': 'us-east5',
  'vertex.projectId': 'from Application Default Credentials',
};

/**
 * The variables holding cloud credentials, named even where a pattern of child-env.ts already covers
 * them, and the path to a Google service account's key file, which no pattern does. (An AWS access
 * key id alone signs nothing: children keep it.)
 */
export const CLOUD_SECRET_ENV = ['AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_BEARER_TOKEN_BEDROCK', 'AZURE_OPENAI_AD_TOKEN', 'GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_OAUTH_ACCESS_TOKEN'] as const;

const AwsCredentialsSchema = z.object({
  accessKeyId: z.string().min(1),
  secretAccessKey: z.string().min(1),
  sessionToken: z.string().min(1).optional(),
});
export type AwsCredentials = z.infer<typeof AwsCredentialsSchema>;

/** What a cloud provider is built from besides the model, endpoint and key: the settings above and the credentials the host found. */
export const CloudSettingsSchema = z.object({
  azureApiVersion: AZURE_API_VERSION.optional(),
  azureDeployment: AZURE_DEPLOYMENT.optional(),
  /** A Microsoft Entra ID token (AZURE_OPENAI_AD_TOKEN), sent as a bearer token instead of the `api-key` header. */
  azureAdToken: z.string().min(1).optional(),
  awsRegion: AWS_REGION.optional(),
  /** From the environment or the AWS shared credentials file; absent with a Bedrock API key. */
  awsCredentials: AwsCredentialsSchema.optional(),
  vertexRegion: VERTEX_REGION.optional(),
  vertexProjectId: VERTEX_PROJECT.optional(),
});
export type CloudSettings = z.infer<typeof CloudSettingsSchema>;

/** The cloud part of the provider settings from the effective setting values (credentials are added by the host). */
export function cloudSettingsOf(values: Partial<Record<CloudSettingKey, string>>): CloudSettings {
  const out: CloudSettings = {};
  if (values['azure.apiVersion']) out.azureApiVersion = values['azure.apiVersion'];
  if (values['azure.deployment']) out.azureDeployment = values['azure.deployment'];
  if (values['bedrock.region']) out.awsRegion = values['bedrock.region'];
  if (values['vertex.region']) out.vertexRegion = values['vertex.region'];
  if (values['vertex.projectId']) out.vertexProjectId = values['vertex.projectId'];
  return out;
}
