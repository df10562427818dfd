// The model as a session config option (ACP v1's model selector, category "model"): the configured
// provider's models from the capability catalogue (Select Model's list in VS Code), the current one
// first when the catalogue does not know it. Choosing one rebuilds the session's agent with it as
// the action model, the conversation carried over.
import type { SessionConfigOption, SessionConfigSelectOption } from '@agentclientprotocol/sdk';
import type { CatalogModel } from '../core/llm/capabilities/catalog';
import type { ModelCapabilities } from '../core/llm/capabilities/model-capabilities';
import type { RoleSettings } from '../core/config/model-role-settings';

export const MODEL_OPTION_ID = 'model';

export function modelOption(models: readonly CatalogModel[], current: string): SessionConfigOption {
  const options: SessionConfigSelectOption[] = models.map((m) => ({ value: m.id, name: m.name, description: describe(m.capabilities) }));
  if (!models.some((m) => m.id === current)) options.unshift({ value: current, name: current, description: 'The configured model' });
  return { id: MODEL_OPTION_ID, name: 'Model', category: 'model', type: 'select', currentValue: current, options };
}

/** The roles with `model` as the action model; roles the user set apart keep their own. */
export function withActionModel(roles: RoleSettings, model: string | undefined): RoleSettings {
  return model ? { ...roles, action: { ...roles.action, model } } : roles;
}

/** "1M-token context · vision · reasoning" (the client shows it under the name). */
function describe(c: ModelCapabilities): string {
  const context = c.contextWindow >= 1_000_000 ? `${Number((c.contextWindow / 1_000_000).toFixed(1))}M` : `${Math.round(c.contextWindow / 1000)}k`;
  return [`${context}-token context`, c.vision && 'vision', c.reasoning && 'reasoning'].filter(Boolean).join(' · ');
}
