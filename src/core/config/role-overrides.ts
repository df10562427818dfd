import * as z from 'zod';
import type { ModelInfo, RoleSettings } from './model-role-settings';
import { PROVIDER_KINDS, type ProviderKind, type ProviderSettings } from './provider-settings';

export const OPTIONAL_ROLES = ['thinking', 'critique', 'vision', 'compact'] as const;
export type OptionalRole = (typeof OPTIONAL_ROLES)[number];

/** How a user binds a role to its own model: the provider and endpoint default to the action model's. */
export const RoleOverrideSchema = z.object({
  provider: z.enum(PROVIDER_KINDS).optional(),
  model: z.string().trim().min(1),
  baseUrl: z.url().optional(),
});
export type RoleOverride = z.infer<typeof RoleOverrideSchema>;

/**
 * The full role settings from the action model and per-role overrides. A role on another provider
 * takes that provider's key (`keyFor`) and official endpoint unless its own base URL is given.
 */
export function buildRoleSettings(
  action: ProviderSettings,
  overrides: Partial<Record<OptionalRole, RoleOverride>>,
  keyFor: (provider: ProviderKind) => string | undefined,
): RoleSettings {
  const roles: RoleSettings = { action };
  for (const role of OPTIONAL_ROLES) {
    const override = overrides[role];
    if (!override) continue;
    const provider = override.provider ?? action.provider;
    const sameProvider = provider === action.provider;
    roles[role] = {
      provider,
      model: override.model,
      baseUrl: override.baseUrl ?? (sameProvider ? action.baseUrl : undefined),
      apiKey: sameProvider ? action.apiKey : keyFor(provider),
      maxAttempts: action.maxAttempts,
      // One choice of OpenAI API for every role (auto still follows each role's model).
      ...(action.openaiApi ? { openaiApi: action.openaiApi } : {}),
      // A cloud's deployment, region and credentials are the user's, whichever role uses the cloud.
      ...(action.cloud ? { cloud: action.cloud } : {}),
    };
  }
  return roles;
}

/** The models behind each configured role, for `/models` (`label` names the provider for display). */
export function describeRoles(roles: RoleSettings, label: (provider: ProviderKind) => string = (p) => p): ModelInfo[] {
  return (['action', ...OPTIONAL_ROLES] as const).flatMap((role) => {
    const s = roles[role];
    return s ? [{ role, provider: label(s.provider), model: s.model, ...(s.baseUrl ? { baseUrl: s.baseUrl } : {}) }] : [];
  });
}
