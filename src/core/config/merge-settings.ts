// The precedence rule, as one pure function: for each key, the highest layer that sets it wins,
// and the effective value remembers which layer (and which file, variable or flag) that was.
import { DEFAULT_MODELS } from './provider-settings';
import { SETTING_KEYS, type LayerValues, type SettingKey, type SettingSource, type SettingsLayer, type SettingValues } from './settings-values';

type Required = 'provider' | 'model' | 'approvalLevel' | 'thinkingLevel' | 'playbook.learn';
export type EffectiveValues = LayerValues & Pick<SettingValues, Required>;

export interface EffectiveSettings {
  values: EffectiveValues;
  /** Every key that has a value, with where it came from. */
  sources: Partial<Record<SettingKey, SettingSource>>;
  /** The layers merged, lowest first (for /config's header). */
  layers: readonly SettingsLayer[];
}

/** Built-in defaults; a host may change some (the CLI thinks `off` in -p). The model defaults per provider. */
export const BUILTIN_DEFAULTS: Pick<SettingValues, Exclude<Required, 'model'>> = {
  provider: 'openai',
  approvalLevel: 'semi-auto',
  thinkingLevel: 'medium',
  'playbook.learn': true,
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
