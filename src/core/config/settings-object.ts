// The trust boundary for a settings object (a settings.json, or VS Code's opendev.* values):
// each known key is validated on its own with zod, so one bad value costs only itself; unknown
// keys and credentials are reported and dropped; hooks and MCP servers pass through untouched.
import * as z from 'zod';
import { THINKING_CADENCES } from './thinking-cadence';
import { THINKING_LEVELS } from './thinking-level';
import { MEMORY_CADENCE_RANGE } from './memory-cadence';
import { SESSION_TITLES } from './session-titles-setting';
import { APPROVAL_LEVELS } from './approval-level';
import { NETWORK_HOST_ENTRY } from './sandbox-settings';
import { WEB_SEARCH_PROVIDERS } from './web-settings';
import { OPENAI_APIS, PROVIDER_KINDS, ProviderSettingsSchema } from './provider-settings';
import { OPTIONAL_ROLES, RoleOverrideSchema, type OptionalRole } from './role-overrides';
import { CLOUD_SETTING_SCHEMAS } from './cloud-settings';
import type { SettingsProblem } from './settings-problem';
import type { LayerValues, PassthroughSettings, SettingKey } from './settings-values';
import { isPlainObject } from '../plain-object';

/** An entry of `secretEnvVars`: a variable name, or a glob with `*`. */
export const SECRET_ENV_NAME = /^[A-Za-z_*][A-Za-z0-9_*]*$/;

/** The same bound as `--max-iterations`. */
const MAX_ITERATIONS_LIMIT = 1000;

const provider = ProviderSettingsSchema.shape;

/** Top-level keys holding one value each (nested ones, `roles`, `playbook` and `sandbox`, are handled below). */
const SCALARS = {
  provider: z.enum(PROVIDER_KINDS),
  model: provider.model,
  baseUrl: provider.baseUrl.unwrap(),
  contextWindow: provider.contextWindow.unwrap(),
  embeddingModel: provider.embeddingModel.unwrap(),
  approvalLevel: z.enum(APPROVAL_LEVELS),
  thinkingLevel: z.enum(THINKING_LEVELS),
  thinkingCadence: z.enum(THINKING_CADENCES),
  sessionTitles: z.enum(SESSION_TITLES),
  maxIterations: z.number().int().min(1).max(MAX_ITERATIONS_LIMIT),
  web_search_provider: z.enum(WEB_SEARCH_PROVIDERS),
  chromium_path: z.string().trim().min(1),
  secretEnvVars: z.array(z.string().trim().regex(SECRET_ENV_NAME, 'a variable name, or a glob with *')).max(200),
  secretPaths: z.array(z.string().trim().min(1)).max(200),
} as const;

/** `sandbox.*`, written nested in a file (`{ "sandbox": { "network": { "allow": [...] } } }`), each key on its own. */
const SANDBOX: Partial<Record<SettingKey, z.ZodType>> = {
  'sandbox.enabled': z.boolean(),
  'sandbox.network.allow': z.array(NETWORK_HOST_ENTRY).max(500),
  'sandbox.write.allow': z.array(z.string().trim().min(1)).max(500),
  'sandbox.mcp': z.boolean(),
};

/** `azure.*`, `bedrock.*`, `vertex.*`: where a cloud provider's deployment, region or project is. */
const CLOUD_GROUPS = ['azure', 'bedrock', 'vertex'] as const;
const CLOUD: Partial<Record<SettingKey, z.ZodType>> = CLOUD_SETTING_SCHEMAS;

const PASSTHROUGH = ['hooks', 'disableAllHooks', 'mcp_servers'] as const;
/** Accepted and ignored: editors use it to validate the file. */
const IGNORED = ['$schema'];
/** Credentials are searched for everywhere except in these, which configure other programs (hook commands, MCP servers). */
const NOT_SEARCHED_FOR_KEYS = new Set<string>(PASSTHROUGH);

export const KNOWN_TOP_LEVEL_KEYS: readonly string[] = [...Object.keys(SCALARS), 'openai', 'playbook', 'memory', 'roles', 'sandbox', ...CLOUD_GROUPS, ...PASSTHROUGH, ...IGNORED];

/** `apiKey`, `api_key`, `OPENAI_API_KEY`, `anthropicApiKey`, `ANTHROPIC_AUTH_TOKEN`, `secretKey`… */
const CREDENTIAL_KEY = /api[-_]?key|auth[-_]?token|access[-_]?token|secret[-_]?key/i;

export interface ParsedSettings {
  values: LayerValues;
  passthrough: PassthroughSettings;
  problems: SettingsProblem[];
}

export function parseSettingsObject(raw: Record<string, unknown>, source: string): ParsedSettings {
  const problems: SettingsProblem[] = [];
  const values: LayerValues = {};
  const passthrough: PassthroughSettings = {};
  const settings = withoutCredentials(raw, '', source, problems) as Record<string, unknown>;

  for (const [key, value] of Object.entries(settings)) {
    if (key in SCALARS) {
      const parsed = SCALARS[key as keyof typeof SCALARS].safeParse(value);
      if (parsed.success) Object.assign(values, { [key]: parsed.data });
      else problems.push(invalid(source, key, parsed.error));
    } else if (key === 'playbook') {
      parsePlaybook(value, source, values, problems);
    } else if (key === 'openai') {
      parseNested(value, 'openai', OPENAI, source, values, problems);
    } else if (key === 'memory') {
      parseNested(value, 'memory', MEMORY, source, values, problems);
    } else if (key === 'sandbox') {
      parseNested(value, 'sandbox', SANDBOX, source, values, problems);
    } else if ((CLOUD_GROUPS as readonly string[]).includes(key)) {
      parseNested(value, key, CLOUD, source, values, problems);
    } else if (key === 'roles') {
      parseRoles(value, source, values, problems);
    } else if ((PASSTHROUGH as readonly string[]).includes(key)) {
      passthrough[key as keyof PassthroughSettings] = value;
    } else if (!IGNORED.includes(key) && !(CREDENTIAL_KEY.test(key) && value === undefined)) {
      problems.push({ kind: 'unknown-key', source, key, detail: `known settings: ${KNOWN_TOP_LEVEL_KEYS.filter((k) => !IGNORED.includes(k)).join(', ')}` });
    }
  }
  return { values, passthrough, problems };
}

/** `playbook.*`, written nested in a file (`{ "playbook": { "learn": true, "reflectEvery": 40 } }`), each key on its own. */
const PLAYBOOK: Partial<Record<SettingKey, z.ZodType>> = {
  'playbook.learn': z.boolean(),
  'playbook.reflectEvery': z.number().int().min(MEMORY_CADENCE_RANGE.min).max(MEMORY_CADENCE_RANGE.max),
};

/** `openai.*` (`{ "openai": { "api": "responses" } }`). */
const OPENAI: Partial<Record<SettingKey, z.ZodType>> = {
  'openai.api': z.enum(OPENAI_APIS),
};

/** `memory.*` (`{ "memory": { "summaryEvery": 10 } }`). */
const MEMORY: Partial<Record<SettingKey, z.ZodType>> = {
  'memory.summaryEvery': z.number().int().min(MEMORY_CADENCE_RANGE.min).max(MEMORY_CADENCE_RANGE.max),
};

function parsePlaybook(value: unknown, source: string, values: LayerValues, problems: SettingsProblem[]): void {
  if (!isPlainObject(value)) {
    problems.push({ kind: 'invalid-value', source, key: 'playbook', detail: 'expected an object like { "learn": false }' });
    return;
  }
  parseNested(value, 'playbook', PLAYBOOK, source, values, problems);
}

/** An object of nested keys (`sandbox.network.allow`): each leaf validated on its own, unknown ones reported. */
function parseNested(value: unknown, at: string, schemas: Partial<Record<SettingKey, z.ZodType>>, source: string, values: LayerValues, problems: SettingsProblem[]): void {
  const known = Object.keys(schemas);
  if (!isPlainObject(value)) {
    problems.push({ kind: 'invalid-value', source, key: at, detail: `expected an object with ${known.filter((k) => k.startsWith(`${at}.`)).join(', ')}` });
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue; // a credential removed above
    const full = `${at}.${key}`;
    const schema = schemas[full as SettingKey];
    if (schema) {
      const parsed = schema.safeParse(v);
      if (parsed.success) Object.assign(values, { [full]: parsed.data });
      else problems.push(invalid(source, full, parsed.error));
    } else if (known.some((k) => k.startsWith(`${full}.`))) parseNested(v, full, schemas, source, values, problems);
    else problems.push({ kind: 'unknown-key', source, key: full, detail: `known: ${known.join(', ')}` });
  }
}

/** Each role on its own: a broken `roles.critique` does not cost `roles.compact`. `null` means unset. */
function parseRoles(value: unknown, source: string, values: LayerValues, problems: SettingsProblem[]): void {
  if (!isPlainObject(value)) {
    problems.push({ kind: 'invalid-value', source, key: 'roles', detail: 'expected an object like { "compact": { "model": "gpt-4.1-mini" } }' });
    return;
  }
  for (const [role, override] of Object.entries(value)) {
    if (override === null || override === undefined) continue;
    if (!(OPTIONAL_ROLES as readonly string[]).includes(role)) {
      problems.push({ kind: 'unknown-key', source, key: `roles.${role}`, detail: `known roles: ${OPTIONAL_ROLES.join(', ')}` });
      continue;
    }
    const parsed = RoleOverrideSchema.strict().safeParse(isPlainObject(override) ? dropUndefined(override) : override);
    if (parsed.success) values[`roles.${role as OptionalRole}`] = parsed.data;
    else problems.push(invalid(source, `roles.${role}`, parsed.error));
  }
}

/**
 * A copy without credential-like keys (each reported where it was found, its value never shown).
 * A removed key stays as `undefined` so its parent is still recognised but the value is gone.
 */
function withoutCredentials(value: unknown, path: string, source: string, problems: SettingsProblem[]): unknown {
  if (Array.isArray(value)) return value.map((v, i) => withoutCredentials(v, `${path}[${i}]`, source, problems));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (path === '' && NOT_SEARCHED_FOR_KEYS.has(key)) out[key] = v;
    else if (CREDENTIAL_KEY.test(key)) {
      problems.push({ kind: 'api-key', source, key: at, detail: 'credential' });
      out[key] = undefined;
    } else out[key] = withoutCredentials(v, at, source, problems);
  }
  return out;
}

function invalid(source: string, key: string, error: z.ZodError): SettingsProblem {
  const detail = error.issues.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
  return { kind: 'invalid-value', source, key, detail };
}

function dropUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
