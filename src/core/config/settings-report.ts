// What /config prints: every effective setting with the layer it came from. Never a secret: the API
// key is only "set" or "not set", and credentials in an endpoint URL are masked.
import { DEFAULT_NETWORK_ALLOW } from './sandbox-settings';
import { CLOUD_SETTING_DEFAULTS } from './cloud-settings';
import type { EffectiveSettings } from './merge-settings';
import type { RoleOverride } from './role-overrides';
import { SETTING_KEYS, type SettingKey, type SettingSource } from './settings-values';

export interface SettingsReport {
  /** The layers, lowest first, as this host has them (`user /home/me/.opendev/settings.json (not found)`). */
  order: string[];
  rows: Array<{ key: string; value: string; source: string }>;
  problems: string[];
}

export interface ReportExtras {
  order: string[];
  /** Whether the action model has a key, and where keys come from in this host. */
  apiKey: { set: boolean; source: string };
  /** Formatted problems of the settings sources (see formatSettingsProblem). */
  problems: string[];
}

const UNSET: Partial<Record<SettingKey, string>> = {
  baseUrl: "the provider's official endpoint",
  contextWindow: 'from the model catalogue',
  embeddingModel: 'a local word-based embedding',
  'openai.api': 'auto: the Responses API for o-series, gpt-5 and codex models, Chat Completions for the others',
  maxIterations: "the agent's default",
  web_search_provider: 'duckduckgo',
  chromium_path: 'OPENDEV_CHROMIUM, else found on the machine',
  'sandbox.enabled': 'on',
  'sandbox.network.allow': `the ${DEFAULT_NETWORK_ALLOW.length} built-in package registries and git hosts`,
  'sandbox.write.allow': 'none besides the workspace, a private temp folder and the tool caches',
  'sandbox.mcp': "on: the project's MCP servers run in the sandbox too",
  ...CLOUD_SETTING_DEFAULTS,
};

export function settingsReport(effective: EffectiveSettings, extras: ReportExtras): SettingsReport {
  const rows: SettingsReport['rows'] = SETTING_KEYS.map((key) => {
    const value = effective.values[key];
    const source = effective.sources[key];
    if (value === undefined || !source) {
      const why = UNSET[key] ?? (key.startsWith('roles.') ? 'falls back to another role, in the end the action model' : 'not set');
      return { key, value: `(not set: ${why})`, source: '' };
    }
    return { key, value: describeValue(value), source: describeSource(source) };
  });
  rows.splice(3, 0, { key: 'apiKey', value: extras.apiKey.set ? 'set' : 'not set', source: extras.apiKey.source });
  return { order: extras.order, rows, problems: extras.problems };
}

export function formatSettingsReport(report: SettingsReport): string {
  const keyWidth = Math.max(...report.rows.map((r) => r.key.length));
  const valueWidth = Math.min(40, Math.max(...report.rows.map((r) => r.value.length)));
  const lines = [
    `Settings (each layer overrides the ones before it: ${report.order.join(' < ')}):`,
    ...report.rows.map((r) => `  ${r.key.padEnd(keyWidth)}  ${r.source ? `${r.value.padEnd(valueWidth)}  ${r.source}` : r.value}`.trimEnd()),
  ];
  if (report.problems.length > 0) lines.push('Problems:', ...report.problems.map((p) => `  ${p}`));
  return lines.join('\n');
}

function describeSource(source: SettingSource): string {
  switch (source.layer) {
    case 'default':
      return source.origin === 'built-in defaults' ? 'default' : `default (${source.origin})`;
    case 'flags':
      return `flag ${source.origin}`;
    default:
      return `${source.layer} (${source.origin})`;
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return /^[a-z]+:\/\//i.test(value) ? maskUrl(value) : value;
  if (typeof value === 'object' && value !== null && 'model' in value) {
    const role = value as RoleOverride;
    const where = [role.provider, role.baseUrl ? `at ${maskUrl(role.baseUrl)}` : undefined].filter(Boolean).join(' ');
    return where ? `${role.model} (${where})` : role.model;
  }
  return String(value);
}

/** `https://user:secret@host/v1?key=…` → `https://***@host/v1?…`: a URL may carry credentials. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    const auth = u.username || u.password ? '***@' : '';
    const query = u.search ? '?…' : '';
    return `${u.protocol}//${auth}${u.host}${u.pathname}${query}`;
  } catch {
    return url;
  }
}
