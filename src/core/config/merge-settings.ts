// The precedence rule, as one pure function: for each key, the highest layer that sets it wins,
// and the effective value remembers which layer (and which file, variable or flag) that was.
import { DEFAULT_THINKING_CADENCE } from './thinking-cadence';
import { DEFAULT_REFLECT_EVERY, DEFAULT_SUMMARY_EVERY } from './memory-cadence';
import { DEFAULT_SESSION_TITLES } from './session-titles-setting';
import { DEFAULT_MODELS } from './provider-settings';
import { SETTING_KEYS, type LayerValues, type SettingKey, type SettingSource, type SettingsLayer, type SettingValues } from './settings-values';

type Required = 'provider' | 'model' | 'approvalLevel' | 'thinkingLevel' | 'thinkingCadence' | 'playbook.learn' | 'playbook.reflectEvery' | 'memory.summaryEvery' | 'sessionTitles';
export type EffectiveValues = LayerValues & Pick<SettingValues, Required>;

export interface EffectiveSettings {
  values: EffectiveValues;
  /** Every key that has a value, with where it came from. */
  sources: Partial<Record<SettingKey, SettingSource>>;
  /** The layers merged, lowest first (for /config's header). */
  layers: readonly SettingsLayer[];
}

/**
 * Built-in defaults; a host may change some (the CLI thinks `off` in -p). The model defaults per
 * provider. Every system of the paper is on, at the cadence a user paying per call would pick:
 * thinking where a step needs it, titles from the first prompt where it reads as one, memory and
 * the playbook working in batches (README, "Configure a provider").
 */
export const BUILTIN_DEFAULTS: Pick<SettingValues, Exclude<Required, 'model'>> = {
  provider: 'openai',
  approvalLevel: 'semi-auto',
  thinkingLevel: 'medium',
  thinkingCadence: DEFAULT_THINKING_CADENCE,
  'playbook.learn': true,
  'playbook.reflectEvery': DEFAULT_REFLECT_EVERY,
  'memory.summaryEvery': DEFAULT_SUMMARY_EVERY,
  sessionTitles: DEFAULT_SESSION_TITLES,
};

export function defaultsLayer(overrides: LayerValues = {}): SettingsLayer {
  return { kind: 'default', label: 'built-in defaults', values: { ...BUILTIN_DEFAULTS, ...overrides } };
}

/** Layers lowest first. Built-in defaults fill whatever no layer sets. */
export function mergeSettingsLayers(layers: readonly SettingsLayer[]): EffectiveSettings {
  const all = layers[0]?.kind === 'default' ? layers : [defaultsLayer(), ...layers];
  const values: LayerValues = {};
  const sources: Partial<Record<SettingKey, SettingSource>> = {};
  for (const layer of all) {
    for (const key of SETTING_KEYS) {
      const value = layer.values[key];
      if (value === undefined) continue;
      Object.assign(values, { [key]: value });
      sources[key] = { layer: layer.kind, origin: layer.origins?.[key] ?? layer.label };
    }
  }
  for (const [key, value] of Object.entries(BUILTIN_DEFAULTS) as Array<[SettingKey, unknown]>) {
    if (values[key] !== undefined) continue;
    Object.assign(values, { [key]: value });
    sources[key] = { layer: 'default', origin: 'built-in defaults' };
  }
  const effective = values as EffectiveValues;
  if (effective.model === undefined) {
    effective.model = DEFAULT_MODELS[effective.provider];
    sources.model = { layer: 'default', origin: `the default for ${effective.provider}` };
  }
  return { values: effective, sources, layers: all };
}
