// What a project's settings may do before the user trusts the folder: only make things stricter.
// A cloned repository must not choose where requests (and with them the user's key) go, nor loosen
// an approval; it may pick a model, lower the approval level or shrink the context window.
import { APPROVAL_LEVELS, type ApprovalLevel } from '../safety/approval-level';
import { OPTIONAL_ROLES } from './role-overrides';
import type { LayerValues, SettingsLayer } from './settings-values';

/** One project setting that was not applied, in words for the trust question ("send requests to …"). */
export interface IgnoredProjectSetting {
  /** The file or settings scope it came from. */
  source: string;
  key: string;
  what: string;
}

/** The layer an untrusted project may have, and what was taken out of it. `below` is what the layers under it decided. */
export function restrictUntrustedLayer(layer: SettingsLayer, below: LayerValues): { layer: SettingsLayer; ignored: IgnoredProjectSetting[] } {
  const values: LayerValues = { ...layer.values };
  const ignored: IgnoredProjectSetting[] = [];
  const drop = (key: keyof LayerValues, what: string) => {
    delete values[key];
    ignored.push({ source: layer.label, key, what });
  };
  if (values.provider !== undefined && values.provider !== below.provider) drop('provider', `switch the provider to ${values.provider}`);
  else delete values.provider;
  if (values.baseUrl !== undefined) drop('baseUrl', `send requests (with your API key) to ${values.baseUrl}`);
  if (values.approvalLevel !== undefined && rank(values.approvalLevel) > rank(below.approvalLevel ?? 'semi-auto')) {
    drop('approvalLevel', `raise the approval level to ${values.approvalLevel}`);
  }
  if (values.contextWindow !== undefined && !(below.contextWindow !== undefined && values.contextWindow < below.contextWindow)) {
    drop('contextWindow', `set the context window to ${values.contextWindow} tokens`);
  }
  for (const role of OPTIONAL_ROLES) {
    const key = `roles.${role}` as const;
    const override = values[key];
    if (!override || (override.provider === undefined && override.baseUrl === undefined)) continue;
    const { provider, baseUrl, ...kept } = override;
    values[key] = kept;
    const what = baseUrl ? `send the ${role} model's requests (with your API key) to ${baseUrl}` : `use ${provider} for the ${role} model`;
    ignored.push({ source: layer.label, key, what });
  }
  return { layer: { ...layer, values }, ignored };
}

/** How much a level lets run unasked: manual < semi-auto < auto. */
function rank(level: ApprovalLevel): number {
  return APPROVAL_LEVELS.indexOf(level);
}
