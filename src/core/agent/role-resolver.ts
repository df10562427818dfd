import type { ModelCapabilities } from '../llm/capabilities/model-capabilities';
import type { ModelRole } from '../llm/model-roles';
import type { LlmProvider } from '../llm/provider';

/** What the executor needs of a model for a role (ModelRoles provides it, with fallback chains). */
export interface ResolvedRoleModel {
  provider: LlmProvider;
  model: string;
  capabilities?: ModelCapabilities;
}

export interface RoleResolver {
  forRole(role: ModelRole): ResolvedRoleModel | undefined;
}
