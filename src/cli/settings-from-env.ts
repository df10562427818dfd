import { THINKING_LEVELS, type ThinkingLevel } from '../core/agent/thinking-level';
import {
  DEFAULT_MODELS,
  PROVIDER_ENV,
  PROVIDER_KINDS,
  ProviderSettingsSchema,
  type ProviderKind,
  type ProviderSettings,
} from '../core/config/provider-settings';
import { buildRoleSettings, OPTIONAL_ROLES, RoleOverrideSchema, type OptionalRole, type RoleOverride } from '../core/config/role-overrides';
import type { RoleSettings } from '../core/llm/model-roles';
import type { CliOptions } from './args';
import { UsageError } from './args';

export const THINKING_ENV = 'OPENDEV_THINKING';

/** The CLI's provider settings: flags over OPENDEV_* variables over defaults; keys only from the environment. */
export function settingsFromEnv(options: CliOptions, env: NodeJS.ProcessEnv): ProviderSettings {
  const provider = (options.provider ?? (env.OPENDEV_PROVIDER?.trim() || 'openai')) as ProviderKind;
  if (!PROVIDER_KINDS.includes(provider)) {
    throw new UsageError(`OPENDEV_PROVIDER="${env.OPENDEV_PROVIDER}" is not one of: ${PROVIDER_KINDS.join(', ')}`);
  }
  const vars = PROVIDER_ENV[provider];
  const parsed = ProviderSettingsSchema.safeParse({
    provider,
    model: options.model ?? (env.OPENDEV_MODEL?.trim() || DEFAULT_MODELS[provider]),
    baseUrl: env[vars.baseUrl] || undefined,
    apiKey: env[vars.apiKey] || undefined,
    ...(env.OPENDEV_CONTEXT_WINDOW?.trim() ? { contextWindow: Number(env.OPENDEV_CONTEXT_WINDOW) } : {}),
    ...(env.OPENDEV_EMBEDDING_MODEL?.trim() ? { embeddingModel: env.OPENDEV_EMBEDDING_MODEL.trim() } : {}),
  });
  if (!parsed.success) {
    throw new UsageError(parsed.error.issues.map((i) => `${describe(String(i.path[0]), provider)}: ${i.message}`).join('; '));
  }
  return parsed.data;
}

/**
 * The thinking level: --thinking, else OPENDEV_THINKING, else `off` for -p (fast, cheap, scriptable)
 * and `medium` for the interactive session.
 */
export function thinkingLevel(options: CliOptions, env: NodeJS.ProcessEnv, interactive: boolean): ThinkingLevel {
  if (options.thinking) return options.thinking;
  const fromEnv = env[THINKING_ENV]?.trim().toLowerCase();
  if (fromEnv) {
    if (!THINKING_LEVELS.includes(fromEnv as ThinkingLevel)) {
      throw new UsageError(`${THINKING_ENV}="${env[THINKING_ENV]}" is not one of ${THINKING_LEVELS.join(', ')}`);
    }
    return fromEnv as ThinkingLevel;
  }
  return interactive ? 'medium' : 'off';
}

/**
 * Every model role: the action model plus the roles bound to their own model by
 * OPENDEV_<ROLE>_MODEL (and optionally OPENDEV_<ROLE>_PROVIDER), e.g. OPENDEV_COMPACT_MODEL=gpt-4.1-mini.
 */
export function roleSettingsFromEnv(action: ProviderSettings, env: NodeJS.ProcessEnv): RoleSettings {
  const overrides: Partial<Record<OptionalRole, RoleOverride>> = {};
  for (const role of OPTIONAL_ROLES) {
    const prefix = `OPENDEV_${role.toUpperCase()}`;
    const model = env[`${prefix}_MODEL`]?.trim();
    if (!model) continue;
    const provider = env[`${prefix}_PROVIDER`]?.trim() || undefined;
    const parsed = RoleOverrideSchema.safeParse({ model, provider, baseUrl: provider ? env[PROVIDER_ENV[provider as ProviderKind]?.baseUrl ?? '']?.trim() || undefined : undefined });
    if (!parsed.success) throw new UsageError(`${prefix}_PROVIDER="${provider}" is not one of: ${PROVIDER_KINDS.join(', ')}`);
    overrides[role] = parsed.data;
  }
  return buildRoleSettings(action, overrides, (p) => env[PROVIDER_ENV[p].apiKey] || undefined);
}


function describe(field: string, provider: ProviderKind): string {
  if (field === 'baseUrl') return PROVIDER_ENV[provider].baseUrl;
  if (field === 'model') return '--model';
  if (field === 'contextWindow') return 'OPENDEV_CONTEXT_WINDOW';
  return field;
}
