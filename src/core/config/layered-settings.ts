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
import type { LayerValues, PassthroughSettings, SettingsLayer } from './settings-values';

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
  if (values.chromium_path === undefined) return;
  delete values.chromium_path;
  problems.push({ kind: 'user-only', source: file, key: 'chromium_path', detail: 'a project may not choose the program the web tools launch; set OPENDEV_CHROMIUM, or chromium_path in your user settings.json (the CLI\'s OPENDEV_HOME/settings.json)' });
}

/** A file layer for /config's header: `project /ws/.opendev/settings.json (none)`. */
export function describeFileLayer(kind: 'user' | 'project', source: SourceLayer | undefined, file: string): string {
  const state = source?.layer ? '' : source && source.problems.length > 0 ? ' (skipped: see Problems)' : ' (none)';
  return `${kind} ${file}${state}`;
}

export interface LayeredSettingsInput {
  env: NodeJS.ProcessEnv;
  /** The CLI's OPENDEV_HOME/settings.json, or VS Code's opendev.* values (`editorSettingsLayer`). */
  user: SourceLayer;
  /** The project's .opendev/settings.json; absent without a workspace. */
  project?: SourceLayer;
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
  sources: { user: SourceLayer; project?: SourceLayer };
}

export function resolveLayeredSettings(input: LayeredSettingsInput): LayeredSettings {
  const stack = (env: SettingsLayer): SettingsLayer[] =>
    [defaultsLayer(input.defaults), env, input.user.layer, input.project?.layer, input.flags].filter((l): l is SettingsLayer => l !== undefined);
  // The endpoint variable depends on the provider, which any layer may choose: merge once to learn it.
  const provider = mergeSettingsLayers(stack(environmentLayer(input.env).layer)).values.provider;
  const environment = environmentLayer(input.env, provider);
  return {
    effective: mergeSettingsLayers(stack(environment.layer)),
    problems: [...input.user.problems, ...(input.project?.problems ?? [])],
    environmentProblems: environment.problems,
    passthrough: { user: input.user.passthrough, project: input.project?.passthrough ?? {} },
    sources: { user: input.user, project: input.project },
  };
}

/** The CLI's loader: the user file under OPENDEV_HOME and the project file of the workspace. */
export function loadLayeredSettings(input: {
  env: NodeJS.ProcessEnv;
  home: string;
  workspaceRoot?: string;
  flags?: SettingsLayer;
  defaults?: LayerValues;
}): LayeredSettings {
  return resolveLayeredSettings({
    env: input.env,
    user: settingsFileLayer('user', opendevPaths(input.home).settingsFile),
    project: input.workspaceRoot === undefined ? undefined : settingsFileLayer('project', projectSettingsFile(input.workspaceRoot)),
    flags: input.flags,
    defaults: input.defaults,
  });
}

/** The keys of VS Code's `opendev.*` section that are agent settings (the user layer in the editor). */
export const EDITOR_SETTING_KEYS = ['provider', 'model', 'baseUrl', 'contextWindow', 'embeddingModel', 'approvalLevel', 'thinkingLevel', 'playbook.learn', 'roles'] as const;

/**
 * VS Code's user layer from the values the user set (`userValue` returns undefined for a setting left
 * at its default). The contributed "empty" defaults ('' and 0) mean unset, as they always did.
 */
export function editorSettingsLayer(userValue: (key: (typeof EDITOR_SETTING_KEYS)[number]) => unknown, label = 'VS Code settings'): SourceLayer {
  const raw: Record<string, unknown> = {};
  const origins: SettingsLayer['origins'] = {};
  for (const key of EDITOR_SETTING_KEYS) {
    let value = userValue(key);
    if (typeof value === 'string') value = value.trim();
    if (value === undefined || value === null || value === '' || (key === 'contextWindow' && value === 0)) continue;
    if (key === 'playbook.learn') raw.playbook = { learn: value };
    else raw[key] = value;
  }
  const parsed = parseSettingsObject(raw, label);
  for (const key of Object.keys(parsed.values) as Array<keyof LayerValues>) origins[key] = `opendev.${key.startsWith('roles.') ? 'roles' : key}`;
  return { layer: { kind: 'user', label, values: parsed.values, origins }, passthrough: {}, problems: parsed.problems };
}
