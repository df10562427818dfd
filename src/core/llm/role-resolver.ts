import type { ModelCapabilities } from './capabilities/model-capabilities';
import type { ModelRole } from '../config/model-role-settings';
import type { LlmProvider } from './provider';

/** What the executor needs of a model for a role (ModelRoles provides it, with fallback chains). */
export interface ResolvedRoleModel {
  provider: LlmProvider;
  model: string;
  capabilities?: ModelCapabilities;
}

export interface RoleResolver {
  forRole(role: ModelRole): ResolvedRoleModel | undefined;
}
