// What a project's settings may do before the user trusts the folder: only make things stricter.
// A cloned repository must not choose where requests (and with them the user's key) go, nor loosen
// an approval, nor open the command sandbox; it may pick a model, lower the approval level, shrink
// the context window, turn the sandbox on or narrow its network list.
import { APPROVAL_LEVELS, type ApprovalLevel } from './approval-level';
import { DEFAULT_NETWORK_ALLOW } from './sandbox-settings';
import { OPTIONAL_ROLES } from './role-overrides';
import { CLOUD_SETTING_KEYS } from './cloud-settings';
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
  // A deployment, region or project decides whose cloud account the requests (signed with the user's credentials) go to.
  for (const key of CLOUD_SETTING_KEYS) if (values[key] !== undefined) drop(key, `set ${key} to ${values[key]}`);
  if (values['sandbox.enabled'] === false) drop('sandbox.enabled', 'turn the command sandbox off');
  if (values['sandbox.mcp'] === false) drop('sandbox.mcp', "run the project's MCP servers outside the sandbox");
  const writable = values['sandbox.write.allow'];
  // An empty list only takes the user's folders away: stricter, so it applies.
  if (writable !== undefined && writable.length > 0) drop('sandbox.write.allow', `let commands write to ${writable.join(', ')}`);
  const hosts = values['sandbox.network.allow'];
  if (hosts !== undefined) {
    // The project's list replaces the one below, so it may keep only hosts that one already allows.
    const allowed = below['sandbox.network.allow'] ?? DEFAULT_NETWORK_ALLOW;
    const kept = hosts.filter((h) => allowed.some((a) => hostCovers(a, h)));
    values['sandbox.network.allow'] = kept;
    const added = hosts.filter((h) => !kept.includes(h));
    if (added.length > 0) ignored.push({ source: layer.label, key: 'sandbox.network.allow', what: `let commands reach ${added.join(', ')}` });
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

/**
 * Whether the allow-list entry `allowed` lets through everything `entry` does: the same host, or a
 * subdomain under `*.domain`, with the same port (none: none). Both are NETWORK_HOST_ENTRY values.
 */
function hostCovers(allowed: string, entry: string): boolean {
  if (allowed === entry) return true;
  const [allowedHost, allowedPort] = splitPort(allowed);
  const [host, port] = splitPort(entry);
  return allowedPort === port && allowedHost.startsWith('*.') && host.endsWith(allowedHost.slice(1));
}

function splitPort(entry: string): [host: string, port: string | undefined] {
  const match = /^(.*?)(?::(\d+))?$/.exec(entry);
  return [match?.[1] ?? entry, match?.[2]];
}

/** How much a level lets run unasked: manual < semi-auto < auto. */
function rank(level: ApprovalLevel): number {
  return APPROVAL_LEVELS.indexOf(level);
}
