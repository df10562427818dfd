// The agent settings every layer may set, by flat key (`playbook.learn`, `roles.compact`), and the
// shape of a layer. Keys are independent: a layer that sets only `model` keeps the provider of the
// layers below it.
import type { ThinkingCadence } from './thinking-cadence';
import type { ThinkingLevel } from './thinking-level';
import type { SessionTitles } from './session-titles-setting';
import type { ApprovalLevel } from './approval-level';
import type { WebSearchProviderName } from './web-settings';
import type { OpenAiApi, ProviderKind } from './provider-settings';
import { OPTIONAL_ROLES, type OptionalRole, type RoleOverride } from './role-overrides';
import { CLOUD_SETTING_KEYS, type CloudSettingKey } from './cloud-settings';

export type RoleKey = `roles.${OptionalRole}`;

export type SettingValues = {
  provider: ProviderKind;
  model: string;
  baseUrl: string;
  contextWindow: number;
  embeddingModel: string;
  /** Provider `openai`: which of its APIs (auto: by model, chat, responses). */
  'openai.api': OpenAiApi;
  approvalLevel: ApprovalLevel;
  thinkingLevel: ThinkingLevel;
  /** Which steps make the thinking call: only where it pays (default), or every step (the paper's loop). */
  thinkingCadence: ThinkingCadence;
  'playbook.learn': boolean;
  /** Messages between two reflections of the playbook (the paper: 5). */
  'playbook.reflectEvery': number;
  /** New messages before the episodic summary of dual memory is made again (the paper: 5). */
  'memory.summaryEvery': number;
  /** Where session titles come from: the first prompt, the compact model, or the model only when the prompt is no title. */
  sessionTitles: SessionTitles;
  maxIterations: number;
  /** The web_search back end (paper §2.5.3's `web_search_provider`). */
  web_search_provider: WebSearchProviderName;
  /** The Chromium or Chrome the web tools drive (OPENDEV_CHROMIUM wins over it); never taken from a project's file. */
  chromium_path: string;
  /** More environment variables no child process may see (names or `*` globs), on top of the built-in list; user settings only. */
  secretEnvVars: string[];
  /** More paths no tool may read and every command naming them asks about (`~` allowed), on top of the built-in list; user settings only. */
  secretPaths: string[];
  /** The OS sandbox of the commands the agent runs (core/config/sandbox-settings.ts); a project may only make it stricter until trusted. */
  'sandbox.enabled': boolean;
  'sandbox.network.allow': string[];
  'sandbox.write.allow': string[];
  'sandbox.mcp': boolean;
} & { [K in RoleKey]: RoleOverride } & { [K in CloudSettingKey]: string };

export type SettingKey = keyof SettingValues;
export type LayerValues = Partial<SettingValues>;

export const ROLE_KEYS: readonly RoleKey[] = OPTIONAL_ROLES.map((r) => `roles.${r}` as const);

/** In the order /config lists them. */
export const SETTING_KEYS: readonly SettingKey[] = [
  'provider',
  'model',
  'baseUrl',
  'contextWindow',
  'embeddingModel',
  'openai.api',
  'approvalLevel',
  'thinkingLevel',
  'thinkingCadence',
  'playbook.learn',
  'playbook.reflectEvery',
  'memory.summaryEvery',
  'sessionTitles',
  'maxIterations',
  'web_search_provider',
  'chromium_path',
  'secretEnvVars',
  'secretPaths',
  'sandbox.enabled',
  'sandbox.network.allow',
  'sandbox.write.allow',
  'sandbox.mcp',
  ...CLOUD_SETTING_KEYS,
  ...ROLE_KEYS,
];

/**
 * Lowest first. `user` is `OPENDEV_HOME/settings.json` in the CLI and the `opendev.*` settings in
 * VS Code; `flags` exist only in the CLI.
 */
export const LAYER_KINDS = ['default', 'environment', 'user', 'project', 'flags'] as const;
export type LayerKind = (typeof LAYER_KINDS)[number];

export interface SettingsLayer {
  kind: LayerKind;
  /** Where the layer comes from, for people: a file path, "the environment", "VS Code settings". */
  label: string;
  values: LayerValues;
  /** Where each value came from when it is more precise than the label: `OPENDEV_MODEL`, `--model`, `opendev.model`. */
  origins?: Partial<Record<SettingKey, string>>;
}

export interface SettingSource {
  layer: LayerKind;
  /** The file, variable, flag or setting that gave the value. */
  origin: string;
}

/** Settings a layer does not interpret but keeps for their own loaders (hooks) or a later feature (MCP servers). */
export interface PassthroughSettings {
  hooks?: unknown;
  disableAllHooks?: unknown;
  mcp_servers?: unknown;
}
