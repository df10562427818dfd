import { platform } from 'node:os';
import type { ProviderSettings } from '../config/provider-settings';
import { createProvider } from '../llm/create-provider';
import { loadTemplate, renderTemplate } from '../templates';
import { createBuiltinRegistry } from '../tools/builtin-tools';
import { Agent } from './agent';

/** Builds the main agent for a workspace. Throws MissingApiKeyError when no key is configured. */
export function createMainAgent(settings: ProviderSettings, workspaceRoot: string): Agent {
  const template = loadTemplate('system/main.md');
  if (!template) throw new Error('templates/system/main.md is missing from the OpenDev installation');
  return new Agent({
    provider: createProvider(settings),
    model: settings.model,
    tools: createBuiltinRegistry(),
    systemPrompt: renderTemplate(template, { WORKSPACE_ROOT: workspaceRoot, PLATFORM: platform() }),
    workspaceRoot,
  });
}
