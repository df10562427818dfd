import type * as vscode from 'vscode';
import type { LmApi } from './lm-api';

/** `opendev.model` for the vscode-lm provider when the user picked none: the first model offered. */
export const AUTO_MODEL = 'auto';

/**
 * Whether a model answers to the `opendev.model` selector: its id, its family, or "vendor/family" /
 * "vendor/id" (Copilot's ids and families overlap across vendors, so the vendor may be named too).
 */
export function matchesSelector(model: Pick<vscode.LanguageModelChat, 'id' | 'family' | 'vendor'>, selector: string): boolean {
  const s = selector.trim().toLowerCase();
  const names = [model.id, model.family, `${model.vendor}/${model.family}`, `${model.vendor}/${model.id}`];
  return names.some((n) => n.toLowerCase() === s);
}

/** The model `selector` names among those VS Code offers (`auto`: the first); undefined when none matches. */
export async function pickLmModel(api: Pick<LmApi, 'lm'>, selector: string): Promise<vscode.LanguageModelChat | undefined> {
  const models = await api.lm.selectChatModels();
  if (selector.trim().toLowerCase() === AUTO_MODEL) return models[0];
  return models.find((m) => matchesSelector(m, selector));
}

/** "GPT-4.1 (copilot)": how the chat and the pickers name a model. */
export function lmModelLabel(model: Pick<vscode.LanguageModelChat, 'name' | 'vendor'>): string {
  return `${model.name} (${model.vendor})`;
}
