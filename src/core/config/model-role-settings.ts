// The model roles a user configures (§2.2.5): one provider setting per job; llm/model-roles resolves them.
import * as z from 'zod';
import { ProviderSettingsSchema } from './provider-settings';

export const MODEL_ROLES = ['action', 'thinking', 'critique', 'vision', 'compact'] as const;
export type ModelRole = (typeof MODEL_ROLES)[number];

export const RoleSettingsSchema = z.object({
  action: ProviderSettingsSchema,
  thinking: ProviderSettingsSchema.optional(),
  critique: ProviderSettingsSchema.optional(),
  vision: ProviderSettingsSchema.optional(),
  compact: ProviderSettingsSchema.optional(),
});
export type RoleSettings = z.infer<typeof RoleSettingsSchema>;

/** The model a role resolves to, as `/models` and the hosts show it. */
export interface ModelInfo {
  role: string;
  provider: string;
  model: string;
  baseUrl?: string;
}
