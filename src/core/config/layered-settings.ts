// The one settings loader (paper §2.5.3):
//   defaults < environment < user < project .opendev/settings.json < command-line flags (CLI only)
// where "user" is OPENDEV_HOME/settings.json in the CLI and the opendev.* settings in VS Code.
// Nothing here throws or writes: bad sources come back as problems for the host to report.
import { join } from 'node:path';
import { environmentLayer, type EnvironmentProblem } from './environment-layer';
import { defaultsLayer, mergeSettingsLayers, type EffectiveSettings } from './merge-settings';
import { opendevPaths } from './opendev-home';
import { parseSettingsObject } from './settings-object';
import { readSettingsFile } from './settings-file';
import type { SettingsProblem } from './settings-problem';
import type { LayerValues, PassthroughSettings, SettingKey, SettingsLayer } from './settings-values';
import type { ProviderKind } from './provider-settings';
import { OPTIONAL_ROLES, type OptionalRole } from './role-overrides';
import { restrictUntrustedLayer, type IgnoredProjectSetting } from './untrusted-project';

/** One source after reading and validation: its usable values (absent when it is missing or unreadable). */
export interface SourceLayer {
  /** The file read, when the source is a file. */
  file?: string;
  layer?: SettingsLayer;
  passthrough: PassthroughSettings;
  problems: SettingsProblem[];
}

export function projectSettingsFile(workspaceRoot: string): string {
  return join(workspaceRoot, '.opendev', 'settings.json');
}

/** A settings.json as a layer. A missing file is no layer and no problem. */
export function settingsFileLayer(kind: 'user' | 'project', file: string): SourceLayer {
  const read = readSettingsFile(file);
  if (read.status === 'missing') return { file, passthrough: {}, problems: [] };
  if (read.status !== 'ok') return { file, passthrough: {}, problems: [{ kind: read.status, source: file, detail: read.problem }] };
  const parsed = parseSettingsObject(read.settings, file);
  if (kind === 'project') withoutUserOnlySettings(parsed.values, file, parsed.problems);
  return { file, layer: { kind, label: file, values: parsed.values }, passthrough: parsed.passthrough, problems: parsed.problems };
}

/**
 * Settings a cloned repository must not make: `chromium_path` names a program the web tools
 * launch without asking, so a project's value could run a script of the repository. Dropped with
 * a warning; the user's own settings and OPENDEV_CHROMIUM still choose the browser.
 */
function withoutUserOnlySettings(values: LayerValues, file: string, problems: SettingsProblem[]): void {
  for (const [key, why] of Object.entries(USER_ONLY)) {
    if (values[key as keyof typeof USER_ONLY] === undefined) continue;
    delete values[key as keyof typeof USER_ONLY];
    problems.push({ kind: 'user-only', source: file, key, detail: why });
  }
}

/** Settings a project's file may never make, trusted or not, with why. */
const USER_ONLY = {
  chromium_path: "a project may not choose the program the web tools launch; set OPENDEV_CHROMIUM, or chromium_path in your user settings.json (the CLI's OPENDEV_HOME/settings.json)",
  // A project's list would replace the user's (the highest layer wins), so it could only shorten it.
  secretEnvVars: 'only your own settings say which variables are secret',
  secretPaths: 'only your own settings say which paths are secret',
} as const;

/** A file layer for /config's header: `project /ws/.opendev/settings.json (none)`. */
export function describeFileLayer(kind: 'user' | 'project', source: SourceLayer | undefined, file: string): string {
  const state = source?.layer ? '' : source && source.problems.length > 0 ? ' (skipped: see Problems)' : ' (none)';
  return `${kind} ${file}${state}`;
}

export interface LayeredSettingsInput {
  env: NodeJS.ProcessEnv;
  /** The CLI's OPENDEV_HOME/settings.json, or VS Code's opendev.* values (`editorSettingsLayer`). */
  user: SourceLayer;
  /** VS Code's workspace and folder `opendev.*` values: the repository's too (.vscode/settings.json). */
  workspace?: SourceLayer;
  /** The project's .opendev/settings.json; absent without a workspace. */
  project?: SourceLayer;
  /**
   * The user trusts this folder's configuration as it is now (see core/trust). Until then the
   * workspace and project layers may only make things stricter (untrusted-project.ts).
   */
  projectTrusted?: boolean;
  /**
   * Whether the user confirmed sending the provider's key to an endpoint a trusted project chose;
   * an unconfirmed one is not used (see `unconfirmedEndpoints`). Absent: none is confirmed.
   */
  endpointConfirmed?: (provider: ProviderKind, baseUrl: string) => boolean;
  /** The CLI's flags: above everything. */
  flags?: SettingsLayer;
  /** The host's defaults over the built-in ones (the CLI's -p thinks `off`). */
  defaults?: LayerValues;
}

export interface LayeredSettings {
  effective: EffectiveSettings;
  /** Problems in the user and project sources (the layer or key is skipped; never fatal). */
  problems: SettingsProblem[];
  /** Variables with unusable values: the CLI stops on them (as it always did), VS Code warns. */
  environmentProblems: EnvironmentProblem[];
  passthrough: { user: PassthroughSettings; project: PassthroughSettings };
  /** The user and project sources as read. */
  sources: { user: SourceLayer; workspace?: SourceLayer; project?: SourceLayer };
  /** What the untrusted project's settings were not allowed to do. */
  untrusted: IgnoredProjectSetting[];
  /** Endpoints a trusted project chose that the user has not confirmed: not used until confirmed. */
  unconfirmedEndpoints: ProjectEndpoint[];
}

/** An endpoint the project's settings chose for a role (`action` is the main model). */
export interface ProjectEndpoint {
  role: 'action' | OptionalRole;
  provider: ProviderKind;
  baseUrl: string;
  source: string;
}

export function resolveLayeredSettings(input: LayeredSettingsInput): LayeredSettings {
  const base = (env: SettingsLayer): SettingsLayer[] => [defaultsLayer(input.defaults), env, input.user.layer].filter((l): l is SettingsLayer => l !== undefined);
  // The endpoint variable depends on the provider, which the user's layers choose (a project's
  // choice applies only once trusted): merge once to learn it.
  const userProvider = mergeSettingsLayers(base(environmentLayer(input.env).layer)).values.provider;
  let environment = environmentLayer(input.env, userProvider);
  const below = mergeSettingsLayers(base(environment.layer)).values;
  const untrusted: IgnoredProjectSetting[] = [];
  const projectLayers = [input.workspace?.layer, input.project?.layer].flatMap((layer) => {
    if (!layer) return [];
    if (input.projectTrusted) return [layer];
    const restricted = restrictUntrustedLayer(layer, below);
    untrusted.push(...restricted.ignored);
    return [restricted.layer];
  });
  const stack = (env: SettingsLayer) => [...base(env), ...projectLayers, input.flags].filter((l): l is SettingsLayer => l !== undefined);
  const provider = mergeSettingsLayers(stack(environment.layer)).values.provider;
  if (provider !== userProvider) environment = environmentLayer(input.env, provider);
  let effective = mergeSettingsLayers(stack(environment.layer));
  const unconfirmedEndpoints = projectEndpoints(effective).filter((e) => !input.endpointConfirmed?.(e.provider, e.baseUrl));
  if (unconfirmedEndpoints.length > 0) {
    // Keys go only where the user sent them: the project's endpoint waits for a yes.
    const withoutUnconfirmed = projectLayers.map((layer) => withoutEndpoints(layer, unconfirmedEndpoints));
    effective = mergeSettingsLayers([...base(environment.layer), ...withoutUnconfirmed, input.flags].filter((l): l is SettingsLayer => l !== undefined));
  }
  return {
    effective,
    problems: [...input.user.problems, ...(input.workspace?.problems ?? []), ...(input.project?.problems ?? [])],
    environmentProblems: environment.problems,
    passthrough: { user: input.user.passthrough, project: input.project?.passthrough ?? {} },
    sources: { user: input.user, workspace: input.workspace, project: input.project },
    untrusted,
    unconfirmedEndpoints,
  };
}

/** The model an endpoint serves, in words: `main`, `compact`… */
export function endpointRoleName(e: ProjectEndpoint): string {
  return e.role === 'action' ? 'main' : e.role;
}

/** The endpoints that come from a project layer (the main model's and each role's). */
function projectEndpoints(effective: EffectiveSettings): ProjectEndpoint[] {
  const v = effective.values;
  const out: ProjectEndpoint[] = [];
  const fromProject = (key: SettingKey) => effective.sources[key]?.layer === 'project';
  if (v.baseUrl !== undefined && fromProject('baseUrl')) out.push({ role: 'action', provider: v.provider, baseUrl: v.baseUrl, source: effective.sources.baseUrl!.origin });
  for (const role of OPTIONAL_ROLES) {
    const override = v[`roles.${role}`];
    if (override?.baseUrl !== undefined && fromProject(`roles.${role}`)) {
      out.push({ role, provider: override.provider ?? v.provider, baseUrl: override.baseUrl, source: effective.sources[`roles.${role}`]!.origin });
    }
  }
  return out;
}

function withoutEndpoints(layer: SettingsLayer, endpoints: readonly ProjectEndpoint[]): SettingsLayer {
  const values: LayerValues = { ...layer.values };
  // From every project layer: a lower project layer's endpoint would be just as unconfirmed.
  for (const e of endpoints) {
    if (e.role === 'action') {
      delete values.baseUrl;
    } else {
      const override = values[`roles.${e.role}`];
      if (override) {
        const { baseUrl: _dropped, ...kept } = override;
        values[`roles.${e.role}`] = kept;
      }
    }
  }
  return { ...layer, values };
}

/** The CLI's loader: the user file under OPENDEV_HOME and the project file of the workspace. */
export function loadLayeredSettings(input: {
  env: NodeJS.ProcessEnv;
  home: string;
  workspaceRoot?: string;
  flags?: SettingsLayer;
  defaults?: LayerValues;
} & Pick<LayeredSettingsInput, 'projectTrusted' | 'endpointConfirmed'>): LayeredSettings {
  return resolveLayeredSettings({
    env: input.env,
    user: settingsFileLayer('user', opendevPaths(input.home).settingsFile),
    project: input.workspaceRoot === undefined ? undefined : settingsFileLayer('project', projectSettingsFile(input.workspaceRoot)),
    flags: input.flags,
    defaults: input.defaults,
    ...(input.projectTrusted !== undefined ? { projectTrusted: input.projectTrusted } : {}),
    ...(input.endpointConfirmed ? { endpointConfirmed: input.endpointConfirmed } : {}),
  });
}

/** The keys of VS Code's `opendev.*` section that are agent settings (the user layer in the editor). */
export const EDITOR_SETTING_KEYS = [
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
  'roles',
  'sandbox.enabled',
  'sandbox.network.allow',
  'sandbox.write.allow',
  'sandbox.mcp',
  'azure.apiVersion',
  'azure.deployment',
  'bedrock.region',
  'vertex.region',
  'vertex.projectId',
] as const;

/**
 * A layer of VS Code's `opendev.*` values: the user's own (`kind` user, the default) or the workspace's
 * and folder's (`kind` project: a repository's .vscode/settings.json, untrusted like its other files).
 * `userValue` returns undefined for a setting not set at that scope. The contributed "empty" defaults
 * ('' and 0) mean unset, as they always did.
 */
export function editorSettingsLayer(
  userValue: (key: (typeof EDITOR_SETTING_KEYS)[number]) => unknown,
  label = 'VS Code settings',
  kind: 'user' | 'project' = 'user',
): SourceLayer {
  const raw: Record<string, unknown> = {};
  const origins: SettingsLayer['origins'] = {};
  for (const key of EDITOR_SETTING_KEYS) {
    let value = userValue(key);
    if (typeof value === 'string') value = value.trim();
    if (value === undefined || value === null || value === '' || (key === 'contextWindow' && value === 0)) continue;
    // Dotted keys are nested in a settings file (`playbook.learn` → { playbook: { learn } }).
    setNested(raw, key.split('.'), value);
  }
  const parsed = parseSettingsObject(raw, label);
  const scope = kind === 'project' ? ' in the workspace settings' : '';
  for (const key of Object.keys(parsed.values) as Array<keyof LayerValues>) origins[key] = `opendev.${key.startsWith('roles.') ? 'roles' : key}${scope}`;
  return { layer: { kind, label, values: parsed.values, origins }, passthrough: {}, problems: parsed.problems };
}

/** `sandbox.network.allow` → `{ sandbox: { network: { allow } } }`, the shape a settings.json has. */
function setNested(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at = target;
  for (const part of path.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
  at[path[path.length - 1]!] = value;
}
