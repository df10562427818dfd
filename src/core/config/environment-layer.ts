// The environment layer: OPENDEV_* variables and the SDKs' own endpoint variables. API keys are
// read by the hosts (the CLI from the environment, VS Code from Secret Storage), never here.
import { THINKING_LEVELS, type ThinkingLevel } from './thinking-level';
import { sessionTitlesFromEnv, SESSION_TITLES_ENV } from './session-titles-setting';
import { playbookLearningFromEnv, PLAYBOOK_LEARN_ENV } from './playbook-learning';
import { OPENAI_API_ENV, OPENAI_APIS, PROVIDER_ENV, PROVIDER_KINDS, ProviderSettingsSchema, type OpenAiApi, type ProviderKind } from './provider-settings';
import { OPTIONAL_ROLES, RoleOverrideSchema } from './role-overrides';
import type { SettingKey, SettingsLayer } from './settings-values';
import { CLOUD_SETTING_ENV, CLOUD_SETTING_KEYS, CLOUD_SETTING_PROVIDER, CLOUD_SETTING_SCHEMAS } from './cloud-settings';

export const THINKING_ENV = 'OPENDEV_THINKING';
/** `sandbox.enabled` for CI and tests: 0/off/false or 1/on/true. */
export const SANDBOX_ENV = 'OPENDEV_SANDBOX';

/** A variable with a value OpenDev cannot use; the CLI refuses to start, VS Code warns and ignores it. */
export interface EnvironmentProblem {
  key: SettingKey;
  variable: string;
  message: string;
}

/**
 * `provider` is the effective provider (from every layer), because the endpoint variable depends on
 * it: OPENAI_BASE_URL for OpenAI and compatible servers, ANTHROPIC_BASE_URL for Anthropic.
 */
export function environmentLayer(env: NodeJS.ProcessEnv, provider?: ProviderKind): { layer: SettingsLayer; problems: EnvironmentProblem[] } {
  const layer: SettingsLayer = { kind: 'environment', label: 'the environment', values: {}, origins: {} };
  const problems: EnvironmentProblem[] = [];
  const set = <K extends SettingKey>(key: K, value: SettingsLayer['values'][K], variable: string) => {
    layer.values[key] = value;
    layer.origins![key] = variable;
  };
  const text = (name: string) => env[name]?.trim() || undefined;

  const chosen = text('OPENDEV_PROVIDER');
  if (chosen !== undefined) {
    if ((PROVIDER_KINDS as readonly string[]).includes(chosen)) set('provider', chosen as ProviderKind, 'OPENDEV_PROVIDER');
    else problems.push({ key: 'provider', variable: 'OPENDEV_PROVIDER', message: `OPENDEV_PROVIDER="${env.OPENDEV_PROVIDER}" is not one of: ${PROVIDER_KINDS.join(', ')}` });
  }
  const model = text('OPENDEV_MODEL');
  if (model) set('model', model, 'OPENDEV_MODEL');

  const endpointVar = PROVIDER_ENV[provider ?? layer.values.provider ?? 'openai'].baseUrl;
  // Not trimmed: the SDKs read the variable as it is, so a stray space is reported, not hidden.
  const endpoint = env[endpointVar] || undefined;
  if (endpoint !== undefined) {
    const parsed = ProviderSettingsSchema.shape.baseUrl.safeParse(endpoint);
    if (parsed.success && parsed.data) set('baseUrl', parsed.data, endpointVar);
    else problems.push({ key: 'baseUrl', variable: endpointVar, message: `${endpointVar}: ${parsed.error?.issues[0]?.message ?? 'invalid URL'}` });
  }

  const windowText = text('OPENDEV_CONTEXT_WINDOW');
  if (windowText !== undefined) {
    const parsed = ProviderSettingsSchema.shape.contextWindow.safeParse(Number(windowText));
    if (parsed.success && parsed.data !== undefined) set('contextWindow', parsed.data, 'OPENDEV_CONTEXT_WINDOW');
    else problems.push({ key: 'contextWindow', variable: 'OPENDEV_CONTEXT_WINDOW', message: `OPENDEV_CONTEXT_WINDOW: ${parsed.error?.issues[0]?.message ?? 'not a number'}` });
  }

  // The clouds' deployment, region and project (AWS_REGION, CLOUD_ML_REGION…): the first variable set of
  // each, read only for the provider they belong to (AWS_REGION set for other tools is none of our business).
  const effectiveProvider = provider ?? layer.values.provider ?? 'openai';
  for (const key of CLOUD_SETTING_KEYS) {
    if (CLOUD_SETTING_PROVIDER[key] !== effectiveProvider) continue;
    const variable = CLOUD_SETTING_ENV[key].find((name) => text(name) !== undefined);
    if (variable === undefined) continue;
    const parsed = CLOUD_SETTING_SCHEMAS[key].safeParse(text(variable));
    if (parsed.success) set(key, parsed.data, variable);
    else problems.push({ key, variable, message: `${variable}="${env[variable]}": expected ${parsed.error.issues[0]?.message ?? 'another value'}` });
  }

  const embedding = text('OPENDEV_EMBEDDING_MODEL');
  if (embedding) set('embeddingModel', embedding, 'OPENDEV_EMBEDDING_MODEL');

  const api = text(OPENAI_API_ENV)?.toLowerCase();
  if (api !== undefined) {
    if ((OPENAI_APIS as readonly string[]).includes(api)) set('openai.api', api as OpenAiApi, OPENAI_API_ENV);
    else problems.push({ key: 'openai.api', variable: OPENAI_API_ENV, message: `${OPENAI_API_ENV}="${env[OPENAI_API_ENV]}" is not one of ${OPENAI_APIS.join(', ')}` });
  }

  const thinking = text(THINKING_ENV)?.toLowerCase();
  if (thinking !== undefined) {
    if ((THINKING_LEVELS as readonly string[]).includes(thinking)) set('thinkingLevel', thinking as ThinkingLevel, THINKING_ENV);
    else problems.push({ key: 'thinkingLevel', variable: THINKING_ENV, message: `${THINKING_ENV}="${env[THINKING_ENV]}" is not one of ${THINKING_LEVELS.join(', ')}` });
  }

  const learn = playbookLearningFromEnv(env);
  if (learn !== undefined) set('playbook.learn', learn, PLAYBOOK_LEARN_ENV);

  const titles = sessionTitlesFromEnv(env);
  if (titles !== undefined) set('sessionTitles', titles, SESSION_TITLES_ENV);

  const sandbox = text(SANDBOX_ENV)?.toLowerCase();
  if (sandbox !== undefined) {
    if (['1', 'on', 'true'].includes(sandbox)) set('sandbox.enabled', true, SANDBOX_ENV);
    else if (['0', 'off', 'false'].includes(sandbox)) set('sandbox.enabled', false, SANDBOX_ENV);
    else problems.push({ key: 'sandbox.enabled', variable: SANDBOX_ENV, message: `${SANDBOX_ENV}="${env[SANDBOX_ENV]}" is not one of 0, off, false, 1, on, true` });
  }

  // OPENDEV_<ROLE>_MODEL, optionally OPENDEV_<ROLE>_PROVIDER (whose endpoint variable then applies).
  for (const role of OPTIONAL_ROLES) {
    const prefix = `OPENDEV_${role.toUpperCase()}`;
    const roleModel = text(`${prefix}_MODEL`);
    if (!roleModel) continue;
    const roleProvider = text(`${prefix}_PROVIDER`);
    const baseUrl = roleProvider ? text(PROVIDER_ENV[roleProvider as ProviderKind]?.baseUrl ?? '') : undefined;
    const parsed = RoleOverrideSchema.safeParse({ model: roleModel, ...(roleProvider ? { provider: roleProvider } : {}), ...(baseUrl ? { baseUrl } : {}) });
    if (parsed.success) set(`roles.${role}`, parsed.data, `${prefix}_MODEL`);
    else if (parsed.error.issues[0]?.path[0] === 'baseUrl') {
      const variable = PROVIDER_ENV[roleProvider as ProviderKind].baseUrl;
      problems.push({ key: `roles.${role}`, variable, message: `${variable}: ${parsed.error.issues[0].message}` });
    } else problems.push({ key: `roles.${role}`, variable: `${prefix}_PROVIDER`, message: `${prefix}_PROVIDER="${roleProvider}" is not one of: ${PROVIDER_KINDS.join(', ')}` });
  }
  return { layer, problems };
}
