import * as vscode from 'vscode';
import {
  describeFileLayer,
  editorSettingsLayer,
  projectSettingsFile,
  resolveLayeredSettings,
  settingsFileLayer,
  type LayeredSettings,
} from '../core/config/layered-settings';
import { buildRoleSettings, OPTIONAL_ROLES, type OptionalRole, type RoleOverride } from '../core/config/role-overrides';
import { formatSettingsProblem, type SettingsProblem } from '../core/config/settings-problem';
import { settingsReport, type SettingsReport } from '../core/config/settings-report';
import type { RoleSettings } from '../core/llm/model-roles';
import type { ApprovalLevel } from '../core/safety/approval-level';
import type { ThinkingLevel } from '../core/agent/thinking-level';
import type { WebSettings } from '../core/web/web-settings';
import { ProviderSettingsSchema, type ProviderKind, type ProviderSettings } from '../core/config/provider-settings';

export const SECTION = 'opendev';
const EDITOR_LABEL = 'VS Code settings';
const API_KEY_HINT = 'Store it with "OpenDev: Set API Key" (VS Code Secret Storage) instead.';

export function secretKeyFor(provider: ProviderKind): string {
  return `opendev.apiKey.${provider}`;
}

/**
 * The agent settings of this window: defaults < environment < opendev.* (the user layer) <
 * <folder>/.opendev/settings.json. Read afresh each time (cheap), so /config and a new agent see
 * the files as they are now. Problems are shown once each; the file is never changed.
 */
function layeredSettings(): LayeredSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const user = editorSettingsLayer((key) => {
    // Only what the user set: the contributed defaults are the defaults layer, not the user's choice.
    const inspected = config.inspect(key);
    return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
  }, EDITOR_LABEL);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const project = folder === undefined ? undefined : settingsFileLayer('project', projectSettingsFile(folder));
  const layered = resolveLayeredSettings({ env: process.env, user, project });
  for (const problem of layered.problems) if (!blocksTheAgent(problem)) warnOnce(describeProblem(problem));
  for (const problem of layered.environmentProblems) warnOnce(`${problem.message}; the variable is ignored.`);
  return layered;
}

export function currentProvider(): ProviderKind {
  return layeredSettings().effective.values.provider;
}

/** The main model as the settings choose it (the provider's default when none is set), for the status bar and Select Model. */
export function currentModel(): { provider: ProviderKind; model: string; baseUrl?: string; contextWindow?: number } {
  const v = layeredSettings().effective.values;
  return { provider: v.provider, model: v.model, ...(v.baseUrl ? { baseUrl: v.baseUrl } : {}), ...(v.contextWindow ? { contextWindow: v.contextWindow } : {}) };
}

export type SettingsOutcome = { ok: true; settings: ProviderSettings; roles: RoleSettings } | { ok: false; problem: string };

/** The layered settings and the key from SecretStorage; a bad opendev.* value is reported, never thrown. */
export async function readProviderSettings(secrets: vscode.SecretStorage): Promise<SettingsOutcome> {
  const layered = layeredSettings();
  const blocking = layered.problems.find(blocksTheAgent);
  if (blocking) return { ok: false, problem: `The setting opendev.${blocking.key} is invalid: ${blocking.detail}` };
  const v = layered.effective.values;
  const parsed = ProviderSettingsSchema.safeParse({
    provider: v.provider,
    model: v.model,
    baseUrl: v.baseUrl,
    apiKey: (await secrets.get(secretKeyFor(v.provider))) || undefined,
    ...(v.contextWindow !== undefined ? { contextWindow: v.contextWindow } : {}),
    ...(v.embeddingModel !== undefined ? { embeddingModel: v.embeddingModel } : {}),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: `The setting opendev.${String(issue?.path[0])} is invalid: ${issue?.message}` };
  }
  const overrides: Partial<Record<OptionalRole, RoleOverride>> = {};
  const keys = new Map<ProviderKind, string | undefined>();
  for (const role of OPTIONAL_ROLES) {
    const override = v[`roles.${role}`];
    if (!override) continue;
    overrides[role] = override;
    if (override.provider && !keys.has(override.provider)) keys.set(override.provider, (await secrets.get(secretKeyFor(override.provider))) || undefined);
  }
  return { ok: true, settings: parsed.data, roles: buildRoleSettings(parsed.data, overrides, (p) => keys.get(p)) };
}

/** `opendev.approvalLevel`, or the project's `approvalLevel`; default semi-auto. */
export function readApprovalLevel(): ApprovalLevel {
  return layeredSettings().effective.values.approvalLevel;
}

/** `playbook.learn` of the project, else `opendev.playbook.learn` when the user set it, else `OPENDEV_PLAYBOOK_LEARN`, else on. */
export function readPlaybookLearning(): boolean {
  return layeredSettings().effective.values['playbook.learn'];
}

/** `opendev.thinkingLevel`, or the project's `thinkingLevel`; default medium. */
export function readThinkingLevel(): ThinkingLevel {
  return layeredSettings().effective.values.thinkingLevel;
}

/** The project's `maxIterations` (there is no opendev.* setting for it); undefined: the agent's default. */
export function readMaxIterations(): number | undefined {
  return layeredSettings().effective.values.maxIterations;
}

/** `web_search_provider` from the project's .opendev/settings.json (no opendev.* setting has it); the browser comes from OPENDEV_CHROMIUM only, since a project may not set `chromium_path`. */
export function readWebSettings(): WebSettings {
  const v = layeredSettings().effective.values;
  return { ...(v.web_search_provider ? { searchProvider: v.web_search_provider } : {}), ...(v.chromium_path ? { chromiumPath: v.chromium_path } : {}) };
}

/** The effective settings and their sources, for /config. */
export async function readSettingsReport(secrets: vscode.SecretStorage): Promise<SettingsReport> {
  const layered = layeredSettings();
  const provider = layered.effective.values.provider;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const project = folder === undefined ? 'project .opendev/settings.json (no folder open)' : describeFileLayer('project', layered.sources.project, projectSettingsFile(folder));
  return settingsReport(layered.effective, {
    order: ['defaults', 'environment', `user (${EDITOR_LABEL}, opendev.*)`, project],
    apiKey: { set: Boolean(await secrets.get(secretKeyFor(provider))), source: 'VS Code Secret Storage ("OpenDev: Set API Key")' },
    problems: [...layered.problems.map(describeProblem), ...layered.environmentProblems.map((p) => `${p.message}; the variable is ignored.`)],
  });
}

/** Settings whose change needs a new agent (provider, model, endpoint, approvals); the thinking level does not. */
export const AGENT_SETTINGS = ['provider', 'model', 'baseUrl', 'contextWindow', 'embeddingModel', 'playbook.learn', 'roles', 'approvalLevel'].map((key) => `${SECTION}.${key}`);

/** A bad opendev.* value of the model or its endpoint stops the agent (as it always did) with a pointer to the setting. */
function blocksTheAgent(p: SettingsProblem): boolean {
  return p.source === EDITOR_LABEL && p.kind === 'invalid-value' && p.key !== undefined && /^(model|baseUrl|contextWindow|embeddingModel|roles)/.test(p.key);
}

function describeProblem(p: SettingsProblem): string {
  return formatSettingsProblem(p, { apiKeyHint: API_KEY_HINT, ...(p.source === EDITOR_LABEL ? { keyName: (k: string) => `opendev.${k}` } : {}) });
}

/** Calls `onChange` when the first folder's .opendev/settings.json is created, edited or deleted. */
export function watchProjectSettings(onChange: () => void): vscode.Disposable {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return { dispose() {} };
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '.opendev/settings.json'));
  const subscriptions = [watcher.onDidChange(onChange), watcher.onDidCreate(onChange), watcher.onDidDelete(onChange)];
  return { dispose: () => [...subscriptions, watcher].forEach((d) => d.dispose()) };
}

const shown = new Set<string>();

/** Each problem once per window: settings are read for every new agent, and repeating a warning helps no one. */
function warnOnce(message: string): void {
  if (shown.has(message)) return;
  shown.add(message);
  void vscode.window.showWarningMessage(`OpenDev: ${message}`);
}
