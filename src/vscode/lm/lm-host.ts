import * as vscode from 'vscode';
import type { RoleSettings } from '../../core/config/model-role-settings';
import type { ProviderSettings } from '../../core/config/provider-settings';
import { createProvider } from '../../core/llm/create-provider';
import type { ProviderFactory } from '../../core/llm/model-roles';
import { pickLmModel } from './lm-model-pick';
import { VsCodeLmProvider } from './vscode-lm-provider';

/** The editor's provider factory: VS Code's language models here, every other kind by the core. */
export const vscodeProviderFactory: ProviderFactory = (settings, options) =>
  settings.provider === 'vscode-lm' ? new VsCodeLmProvider(vscode) : createProvider(settings, options);

/**
 * Each vscode-lm role's context window from its model (maxInputTokens), unless the user set one:
 * the capability catalogue does not know these models, and the compactor plans by this number.
 */
export async function withLmContextWindows(roles: RoleSettings): Promise<RoleSettings> {
  const out: RoleSettings = { ...roles };
  for (const role of Object.keys(roles) as Array<keyof RoleSettings>) {
    const settings = roles[role];
    if (settings?.provider !== 'vscode-lm' || settings.contextWindow !== undefined) continue;
    const model = await pickLmModel(vscode, settings.model).catch(() => undefined);
    if (model && model.maxInputTokens >= 1000) out[role] = { ...settings, contextWindow: model.maxInputTokens } as ProviderSettings;
  }
  return out;
}
