import {
  DEFAULT_MODELS,
  PROVIDER_ENV,
  ProviderSettingsSchema,
  type ProviderKind,
  type ProviderSettings,
} from '../core/config/provider-settings';
import type { CliOptions } from './args';
import { UsageError } from './args';

/** The CLI's provider settings: flags over OPENDEV_* variables over defaults; keys only from the environment. */
export function settingsFromEnv(options: CliOptions, env: NodeJS.ProcessEnv): ProviderSettings {
  const provider = (options.provider ?? env.OPENDEV_PROVIDER ?? 'openai') as ProviderKind;
  const vars = PROVIDER_ENV[provider];
  if (!vars) throw new UsageError(`OPENDEV_PROVIDER="${env.OPENDEV_PROVIDER}" is not one of: ${Object.keys(PROVIDER_ENV).join(', ')}`);
  const parsed = ProviderSettingsSchema.safeParse({
    provider,
    model: options.model ?? env.OPENDEV_MODEL ?? DEFAULT_MODELS[provider],
    baseUrl: env[vars.baseUrl] || undefined,
    apiKey: env[vars.apiKey] || undefined,
  });
  if (!parsed.success) {
    throw new UsageError(parsed.error.issues.map((i) => `${describe(String(i.path[0]), provider)}: ${i.message}`).join('; '));
  }
  return parsed.data;
}

function describe(field: string, provider: ProviderKind): string {
  if (field === 'baseUrl') return PROVIDER_ENV[provider].baseUrl;
  if (field === 'model') return '--model';
  return field;
}
