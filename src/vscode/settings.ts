import * as vscode from 'vscode';
import { localFolders } from './chat-folder';
import { watchEachFolder } from './folder-watchers';
import {
  describeFileLayer,
  EDITOR_SETTING_KEYS,
  editorSettingsLayer,
  projectSettingsFile,
  resolveLayeredSettings,
  settingsFileLayer,
  type LayeredSettings,
} from '../core/config/layered-settings';
import { buildRoleSettings, OPTIONAL_ROLES, type OptionalRole, type RoleOverride } from '../core/config/role-overrides';
import { formatSettingsProblem, type SettingsProblem } from '../core/config/settings-problem';
import { settingsReport, type SettingsReport } from '../core/config/settings-report';
import type { RoleSettings } from '../core/config/model-role-settings';
import type { ApprovalLevel } from '../core/config/approval-level';
import type { ThinkingCadence } from '../core/config/thinking-cadence';
import type { ThinkingLevel } from '../core/config/thinking-level';
import type { SessionTitles } from '../core/config/session-titles-setting';
import type { WebSettings } from '../core/config/web-settings';
import { sandboxSettingsOf, type SandboxSettings } from '../core/config/sandbox-settings';
import { PROVIDER_ENV, PROVIDER_KINDS, ProviderSettingsSchema, type ProviderKind, type ProviderSettings } from '../core/config/provider-settings';
import { cloudPart } from '../core/config/cloud-credentials';
import { SECRET_ENV_NAME } from '../core/config/settings-object';
import { resolveOpendevHome } from '../core/config/opendev-home';
import { projectTrustRequests, type TrustRequest } from '../core/session/trust-requests';
import { PROJECT_CONFIG_FILES, PROJECT_CONFIG_FOLDERS } from '../core/trust/project-files';
import { readProjectTrust, type ProjectTrust, type ProjectTrustWhere } from '../core/trust/project-trust';
import { endpointConfirmation } from '../core/trust/trust-store';

export const SECTION = 'opendev';
const EDITOR_LABEL = 'VS Code settings';
/** The workspace's and folder's opendev.* values (a repository's .vscode/settings.json): a project layer. */
const WORKSPACE_LABEL = 'VS Code workspace settings';
/** Their name in the trust record (OPENDEV_HOME/trust.json), next to the project's files. */
export const WORKSPACE_TRUST_SOURCE = 'VS Code workspace settings (opendev.*)';
const API_KEY_HINT = 'Store it with "OpenDev: Set API Key" (VS Code Secret Storage) instead.';

export function secretKeyFor(provider: ProviderKind): string {
  return `opendev.apiKey.${provider}`;
}

/** The clouds added later than OpenAI and Anthropic also take their key from the environment (AZURE_OPENAI_API_KEY…), as their SDKs do. */
const ENV_KEY_FALLBACK: ReadonlySet<ProviderKind> = new Set(PROVIDER_KINDS.filter((p) => p !== 'openai' && p !== 'anthropic' && p !== 'openai-compatible'));

/** The provider's key: Secret Storage first, then (for the clouds) its environment variable. */
async function storedKey(secrets: vscode.SecretStorage, provider: ProviderKind): Promise<string | undefined> {
  const stored = (await secrets.get(secretKeyFor(provider))) || undefined;
  if (stored || !ENV_KEY_FALLBACK.has(provider)) return stored;
  return process.env[PROVIDER_ENV[provider].apiKey]?.trim() || undefined;
}

/**
 * The agent settings of this window: defaults < environment < the user's opendev.* values <
 * the workspace's and folder's opendev.* values < <folder>/.opendev/settings.json. The last two are
 * the repository's: until the user trusts the folder (VS Code's Workspace Trust and OpenDev's own
 * record of its configuration, core/trust) they may only make things stricter. Read afresh each
 * time (cheap), so /config and a new agent see the files as they are now. Problems are shown once
 * each; the files are never changed.
 */
function layeredSettings(): LayeredSettings {
  return windowSettings(settingsFolder()).layered;
}

/**
 * Whose project layer and trust are read: the chat's folder (a multi-root workspace has several,
 * each with its own configuration and its own trust). Until start-up says so, the first local one.
 */
let settingsFolder: () => vscode.WorkspaceFolder | undefined = () => localFolders()[0];

/** The chat's folder from now on (extension-core, at start-up). */
export function readSettingsOf(folder: () => vscode.WorkspaceFolder | undefined): void {
  settingsFolder = folder;
}

/** Whether this window's folder configuration may act with the user's authority, and what it asks for. */
export interface FolderTrustState {
  folder: string;
  /** Where the trust record is read and written (OPENDEV_HOME, and the workspace's values by name). */
  where: ProjectTrustWhere;
  /** VS Code's Workspace Trust; false: Restricted Mode. */
  editorTrusted: boolean;
  /** OpenDev's record: the folder's configuration, as it is now, was trusted. */
  trust: ProjectTrust;
  /** Both: the configuration applies (its endpoints still wait for the user's yes, see layered.unconfirmedEndpoints). */
  trusted: boolean;
  layered: LayeredSettings;
  /** Everything the configuration asks for that needs trust (settings, hooks, allow rules, MCP servers); empty once trusted. */
  requests: TrustRequest[];
}

/** The trust of `folder` (the chat's by default) as it is now; undefined without a folder. */
export function readFolderTrust(folder = settingsFolder()): FolderTrustState | undefined {
  const { layered, trust } = windowSettings(folder);
  if (!trust) return undefined;
  const requests = trust.trusted ? [] : projectTrustRequests({ home: trust.where.home, workspaceRoot: trust.folder, settings: layered.untrusted });
  return { ...trust, layered, requests };
}

function windowSettings(workspaceFolder: vscode.WorkspaceFolder | undefined): { layered: LayeredSettings; trust?: Omit<FolderTrustState, 'layered' | 'requests'> } {
  // Scoped to the folder: its own .vscode/settings.json values, not another folder's.
  const config = vscode.workspace.getConfiguration(SECTION, workspaceFolder?.uri);
  // Only what was set: the contributed defaults are the defaults layer, not anyone's choice.
  const user = editorSettingsLayer((key) => config.inspect(key)?.globalValue, EDITOR_LABEL);
  const workspaceValues = workspaceOpendevValues(config);
  const workspace = Object.keys(workspaceValues).length === 0 ? undefined : editorSettingsLayer((key) => workspaceValues[key], WORKSPACE_LABEL, 'project');
  const folder = workspaceFolder?.uri.fsPath;
  const project = folder === undefined ? undefined : settingsFileLayer('project', projectSettingsFile(folder));
  const home = resolveOpendevHome();
  let trust: Omit<FolderTrustState, 'layered' | 'requests'> | undefined;
  if (folder !== undefined) {
    const where: ProjectTrustWhere = { home, workspaceRoot: folder, extra: { [WORKSPACE_TRUST_SOURCE]: workspace ? JSON.stringify(workspaceValues) : undefined } };
    const record = readProjectTrust(where);
    if (record.problem) warnOnce(`${home}/trust.json cannot be used (${record.problem}); no folder counts as trusted until it is fixed or deleted.`);
    const editorTrusted = vscode.workspace.isTrusted;
    trust = { folder, where, editorTrusted, trust: record, trusted: editorTrusted && record.trusted };
  }
  const layered = resolveLayeredSettings({
    env: process.env,
    user,
    workspace,
    project,
    projectTrusted: trust?.trusted ?? false,
    endpointConfirmed: endpointConfirmation(home),
  });
  for (const problem of layered.problems) if (!blocksTheAgent(problem)) warnOnce(describeProblem(problem));
  for (const problem of layered.environmentProblems) warnOnce(`${problem.message}; the variable is ignored.`);
  return { layered, ...(trust ? { trust } : {}) };
}

/**
 * The opendev.* values the workspace (its .code-workspace file) or the folder (.vscode/settings.json)
 * sets, the folder's first. In Restricted Mode VS Code hides the restricted ones (package.json
 * `capabilities.untrustedWorkspaces`) from extensions altogether.
 */
function workspaceOpendevValues(config: vscode.WorkspaceConfiguration): Partial<Record<(typeof EDITOR_SETTING_KEYS)[number], unknown>> {
  const values: Partial<Record<(typeof EDITOR_SETTING_KEYS)[number], unknown>> = {};
  for (const key of EDITOR_SETTING_KEYS) {
    const inspected = config.inspect(key);
    const value = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
    if (value !== undefined) values[key] = value;
  }
  return values;
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
  const cloud = cloudPart(v.provider, v, process.env);
  const parsed = ProviderSettingsSchema.safeParse({
    provider: v.provider,
    model: v.model,
    baseUrl: v.baseUrl,
    apiKey: await storedKey(secrets, v.provider),
    ...(v.contextWindow !== undefined ? { contextWindow: v.contextWindow } : {}),
    ...(v.embeddingModel !== undefined ? { embeddingModel: v.embeddingModel } : {}),
    ...(v['openai.api'] !== undefined ? { openaiApi: v['openai.api'] } : {}),
    ...(cloud ? { cloud } : {}),
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
    if (override.provider && !keys.has(override.provider)) keys.set(override.provider, await storedKey(secrets, override.provider));
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

/** `playbook.reflectEvery` of the project, else `opendev.playbook.reflectEvery`; default 40 messages. */
export function readPlaybookReflectEvery(): number {
  return layeredSettings().effective.values['playbook.reflectEvery'];
}

/** `memory.summaryEvery` of the project, else `opendev.memory.summaryEvery`; default 10 messages. */
export function readEpisodicSummaryEvery(): number {
  return layeredSettings().effective.values['memory.summaryEvery'];
}

/** `opendev.thinkingLevel`, or the project's `thinkingLevel`; default medium. */
export function readThinkingLevel(): ThinkingLevel {
  return layeredSettings().effective.values.thinkingLevel;
}

/** `opendev.thinkingCadence`, or the project's `thinkingCadence`; default when-needed. */
export function readThinkingCadence(): ThinkingCadence {
  return layeredSettings().effective.values.thinkingCadence;
}

/** `opendev.sessionTitles`, or the project's, else OPENDEV_SESSION_TITLES; default when-needed. */
export function readSessionTitles(): SessionTitles {
  return layeredSettings().effective.values.sessionTitles;
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

/**
 * `opendev.sandbox.*` where the user set them, the workspace's and the project's `sandbox.*` only
 * stricter until the folder is trusted, OPENDEV_SANDBOX for `enabled`; the defaults fill the rest.
 */
export function readSandboxSettings(): SandboxSettings {
  return sandboxSettingsOf(layeredSettings().effective.values);
}

/**
 * `opendev.secretEnvVars`: more variables no child process sees (child-env.ts). Only the user's own
 * value counts (the setting is application-scoped, so VS Code refuses it in a workspace; a
 * workspace or folder value is ignored here too); a bad entry is skipped with a warning.
 */
export function readSecretEnvVars(): string[] {
  return userList('secretEnvVars', (e) => SECRET_ENV_NAME.test(e), 'a list of variable names or globs with * (for example MY_SERVICE_*)');
}

/**
 * `opendev.secretPaths`: more locations no tool reads and every command naming them asks about
 * (secret-locations.ts). The user's own value only, like secretEnvVars; a bad entry is skipped with a warning.
 */
export function readSecretPaths(): string[] {
  return userList('secretPaths', (e) => e !== '', 'a list of paths (for example ~/.config/my-service)');
}

/** The user's own (global) value of a list setting, trimmed; entries that are not `valid` strings are skipped with a warning. */
function userList(key: 'secretEnvVars' | 'secretPaths', valid: (entry: string) => boolean, takes: string): string[] {
  const value = vscode.workspace.getConfiguration(SECTION).inspect<unknown>(key)?.globalValue;
  if (value === undefined) return [];
  const entries = Array.isArray(value) ? value : [value];
  const kept = entries.filter((e): e is string => typeof e === 'string' && valid(e.trim())).map((e) => e.trim());
  if (!Array.isArray(value) || kept.length !== entries.length) warnOnce(`opendev.${key} takes ${takes}; the other entries are ignored.`);
  return kept;
}

/** The effective settings and their sources, for /config; what the folder's configuration was not allowed to do is among the problems. */
export async function readSettingsReport(secrets: vscode.SecretStorage): Promise<SettingsReport> {
  const state = readFolderTrust();
  const layered = state?.layered ?? layeredSettings();
  const provider = layered.effective.values.provider;
  const folder = settingsFolder()?.uri.fsPath;
  const limited = state && !state.trusted ? ` — ${untrustedWhy(state)}: only stricter values apply` : '';
  const project = folder === undefined ? 'project .opendev/settings.json (no folder open)' : `${describeFileLayer('project', layered.sources.project, projectSettingsFile(folder))}${limited}`;
  const workspace = `workspace (${WORKSPACE_LABEL}, opendev.*)${layered.sources.workspace ? limited : ' (none)'}`;
  return settingsReport(layered.effective, {
    order: ['defaults', 'environment', `user (${EDITOR_LABEL}, opendev.*)`, workspace, project],
    apiKey: { set: Boolean(await secrets.get(secretKeyFor(provider))), source: 'VS Code Secret Storage ("OpenDev: Set API Key")' },
    problems: [
      ...layered.problems.map(describeProblem),
      ...layered.environmentProblems.map((p) => `${p.message}; the variable is ignored.`),
      ...(state?.requests ?? []).map((r) => `Not applied (${untrustedWhy(state!)}): ${r.what} (${r.source}).`),
      ...layered.unconfirmedEndpoints.map((e) => `Not used until you confirm it: ${e.baseUrl} (${e.source}); run "OpenDev: Trust Folder Configuration…".`),
    ],
  });
}

/** Why the folder's configuration does not apply, in words. */
export function untrustedWhy(state: Pick<FolderTrustState, 'editorTrusted' | 'trust'>): string {
  if (!state.editorTrusted) return "VS Code's Restricted Mode: the folder is not trusted";
  return state.trust.state === 'changed' ? `changed since you trusted it: ${state.trust.changed.join(', ')}` : 'the folder is not trusted';
}

/** Settings whose change needs a new agent (provider, model, endpoint, approvals, the sandbox); the thinking level does not. */
export const AGENT_SETTINGS = ['provider', 'model', 'baseUrl', 'azure', 'bedrock', 'vertex', 'contextWindow', 'embeddingModel', 'openai.api', 'playbook.learn', 'playbook.reflectEvery', 'memory.summaryEvery', 'thinkingCadence', 'roles', 'approvalLevel', 'sandbox.enabled', 'sandbox.network.allow', 'sandbox.write.allow', 'sandbox.mcp'].map((key) => `${SECTION}.${key}`);

/** A bad opendev.* value of the model or its endpoint stops the agent (as it always did) with a pointer to the setting. */
function blocksTheAgent(p: SettingsProblem): boolean {
  return p.source === EDITOR_LABEL && p.kind === 'invalid-value' && p.key !== undefined && /^(model|baseUrl|contextWindow|embeddingModel|roles|azure|bedrock|vertex)/.test(p.key);
}

function describeProblem(p: SettingsProblem): string {
  const keyName = p.source === EDITOR_LABEL ? (k: string) => `opendev.${k}` : p.source === WORKSPACE_LABEL ? (k: string) => `opendev.${k} (workspace settings)` : undefined;
  return formatSettingsProblem(p, { apiKeyHint: API_KEY_HINT, ...(keyName ? { keyName } : {}) });
}

/**
 * Calls `onChange` when one of a workspace folder's configuration files (PROJECT_CONFIG_FILES:
 * .opendev/settings.json, its permissions.json, .claude/settings*.json, .mcp.json) is created,
 * edited or deleted: its settings may apply differently, and a trusted one is trusted no more.
 * Their folders are watched too: the editor's watcher misses a file written into a folder created
 * just before (`mkdir -p .opendev && …`) when it gets to the new folder late, as on a busy machine,
 * and a deleted folder is not always reported file by file. `onChange` reads the files themselves.
 */
export function watchProjectSettings(onChange: () => void): vscode.Disposable {
  // Every folder, those added later too: the chat may switch to any of them, and its agent reads that folder's files then.
  const watched = [...PROJECT_CONFIG_FILES, ...PROJECT_CONFIG_FOLDERS];
  return watchEachFolder(`{${watched.join(',')}}`, () => onChange());
}

const shown = new Set<string>();

/** Each problem once per window: settings are read for every new agent, and repeating a warning helps no one. */
function warnOnce(message: string): void {
  if (shown.has(message)) return;
  shown.add(message);
  void vscode.window.showWarningMessage(vscode.l10n.t('OpenDev: {0}', message));
}
