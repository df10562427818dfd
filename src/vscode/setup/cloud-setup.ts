// The cloud providers in Choose Provider and Select Model: their names and blurbs, the settings each
// asks for once chosen (Azure's endpoint and deployment, Bedrock's region, Vertex's project and
// region; never a key: that goes to Secret Storage through Set API Key), and OpenRouter's model list.
import * as vscode from 'vscode';
import { CLOUD_SETTING_SCHEMAS, type CloudSettingKey } from '../../core/config/cloud-settings';
import { KEY_OPTIONAL, OFFICIAL_BASE_URLS, type ProviderKind } from '../../core/config/provider-settings';
import type { CatalogModel } from '../../core/llm/capabilities/catalog';
import { listOpenRouterModels } from '../../core/llm/openrouter-models';
import { SECTION } from '../settings';

export const providerNames = (): Record<ProviderKind, string> => ({
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': vscode.l10n.t('OpenAI-compatible server'),
  'azure-openai': 'Azure OpenAI',
  bedrock: 'Amazon Bedrock',
  vertex: 'Google Vertex AI',
  gemini: 'Gemini',
  openrouter: 'OpenRouter',
  'vscode-lm': vscode.l10n.t("VS Code's language models"),
});

export const CLOUD_ABOUT = (): Record<'azure-openai' | 'bedrock' | 'vertex' | 'gemini' | 'openrouter', string> => ({
  'azure-openai': vscode.l10n.t("Your Azure OpenAI resource: its endpoint and deployment in settings, its key (or an Entra ID token in AZURE_OPENAI_AD_TOKEN) in Secret Storage."),
  bedrock: vscode.l10n.t('Claude on Amazon Bedrock: your AWS credentials (environment or ~/.aws/credentials) or a Bedrock API key, and a region.'),
  vertex: vscode.l10n.t('Claude on Google Vertex AI: Application Default Credentials (gcloud) or an access token, your project and a region.'),
  gemini: vscode.l10n.t('Gemini models through Google’s OpenAI-compatible endpoint, with a Gemini API key.'),
  openrouter: vscode.l10n.t('Hundreds of models behind one OpenRouter key.'),
});

/** A key is optional for a local server, and for Bedrock and Vertex (the cloud's own credentials sign the requests). */
export function keyOptional(provider: ProviderKind): boolean {
  return KEY_OPTIONAL.has(provider);
}

interface Question {
  key: CloudSettingKey | 'baseUrl';
  title: string;
  prompt: string;
  placeholder?: string;
  /** Asked only while unset; an optional one may be left empty. */
  optional?: boolean;
}

const QUESTIONS = (): Partial<Record<ProviderKind, Question[]>> => ({
  'azure-openai': [
    { key: 'baseUrl', title: vscode.l10n.t('OpenDev: Azure OpenAI endpoint'), prompt: vscode.l10n.t('Your resource’s endpoint (opendev.baseUrl).'), placeholder: 'https://my-resource.openai.azure.com' },
    { key: 'azure.deployment', title: vscode.l10n.t('OpenDev: Azure OpenAI deployment'), prompt: vscode.l10n.t('The deployment name (opendev.azure.deployment). Empty: the model setting names it.'), optional: true },
  ],
  bedrock: [{ key: 'bedrock.region', title: vscode.l10n.t('OpenDev: AWS region for Bedrock'), prompt: vscode.l10n.t('opendev.bedrock.region, e.g. us-east-1.'), placeholder: 'us-east-1', optional: true }],
  vertex: [
    { key: 'vertex.projectId', title: vscode.l10n.t('OpenDev: Google Cloud project'), prompt: vscode.l10n.t('opendev.vertex.projectId. Empty: the one of your Application Default Credentials.'), optional: true },
    { key: 'vertex.region', title: vscode.l10n.t('OpenDev: Vertex AI region'), prompt: vscode.l10n.t('opendev.vertex.region, e.g. us-east5 or global.'), placeholder: 'us-east5', optional: true },
  ],
});

/** Asks for the settings the chosen cloud still lacks, each checked as the setting is; Escape leaves one unset. */
export async function askCloudSettings(provider: ProviderKind): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  for (const q of QUESTIONS()[provider] ?? []) {
    if (config.inspect<string>(q.key)?.globalValue) continue;
    const value = await vscode.window.showInputBox({
      title: q.title,
      prompt: q.prompt,
      ...(q.placeholder ? { placeHolder: q.placeholder } : {}),
      ignoreFocusOut: true,
      validateInput: (v) => validate(q, v),
    });
    if (value === undefined) return;
    if (value.trim()) await config.update(q.key, value.trim(), vscode.ConfigurationTarget.Global);
  }
}

function validate(q: Question, value: string): string | undefined {
  const v = value.trim();
  if (!v) return q.optional ? undefined : vscode.l10n.t('Enter a value, or press Escape to cancel.');
  if (q.key === 'baseUrl') return /^https:\/\/\S+$/.test(v) ? undefined : vscode.l10n.t('Enter an https:// address.');
  const parsed = CLOUD_SETTING_SCHEMAS[q.key].safeParse(v);
  return parsed.success ? undefined : vscode.l10n.t('Expected {0}.', parsed.error.issues[0]?.message ?? '');
}

/** OpenRouter's own list (its /models); undefined for the providers the capability catalogue lists. A failure shows the catalogue's. */
export async function cloudModelList(provider: ProviderKind, baseUrl: string | undefined): Promise<CatalogModel[] | undefined> {
  if (provider !== 'openrouter') return undefined;
  try {
    return await listOpenRouterModels(baseUrl ?? OFFICIAL_BASE_URLS.openrouter!);
  } catch (err) {
    void vscode.window.showWarningMessage(vscode.l10n.t('OpenDev: OpenRouter’s model list could not be read ({0}); showing the catalogue’s.', err instanceof Error ? err.message : String(err)));
    return undefined;
  }
}
