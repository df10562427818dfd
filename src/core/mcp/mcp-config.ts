// Where a session's MCP servers come from. Three layers, later ones win for the same name:
//   user     OPENDEV_HOME/settings.json           "mcp_servers"
//   mcp.json <workspace>/.mcp.json                "mcpServers" (the Claude Code / Cursor format)
//   project  <workspace>/.opendev/settings.json   "mcp_servers"
// A full entry replaces a lower one; an entry with only `enabled` (or `disabled`) switches a lower
// one on or off. Nothing here throws: a bad file or entry is a warning naming the file and server.
// `${VAR}` in an entry expands from the environment; in an entry of .mcp.json or the project's
// settings a secret variable (child-env.ts) expands as if unset: only the user's own servers get keys.
import { join } from 'node:path';
import * as z from 'zod';
import { opendevPaths } from '../config/opendev-home';
import { projectSettingsFile } from '../config/layered-settings';
import { environmentWithSecrets, isSecretEnvName } from '../process/child-env';
import { expandServerEntry, type SecretGuard } from './expand-env-vars';
import { SERVER_NAME_PATTERN } from './mcp-names';
import { readMcpServers, type McpServersKey } from './mcp-settings-file';
import { McpServerConfigSchema, type McpConfigSource, type McpServerEntry } from './mcp-types';

export interface LoadedMcpConfig {
  /** In the order first defined (user, then .mcp.json, then project). */
  servers: McpServerEntry[];
  warnings: string[];
}

/** Keys an entry may have without defining a server: it only switches one defined lower. */
const TOGGLE_KEYS = new Set(['enabled', 'disabled', 'description']);

/** `env`: where `${VAR}` comes from; by default process.env with the secrets the CLI took out of it back in. */
export function loadMcpConfig(options: { home: string; workspaceRoot: string; env?: NodeJS.ProcessEnv }): LoadedMcpConfig {
  const env = options.env ?? environmentWithSecrets();
  const servers = new Map<string, McpServerEntry>();
  const warnings: string[] = [];
  const layers: Array<{ source: McpConfigSource; file: string; key: McpServersKey }> = [
    { source: 'user', file: opendevPaths(options.home).settingsFile, key: 'mcp_servers' },
    { source: 'mcp.json', file: join(options.workspaceRoot, '.mcp.json'), key: 'mcpServers' },
    { source: 'project', file: projectSettingsFile(options.workspaceRoot), key: 'mcp_servers' },
  ];
  for (const layer of layers) {
    const entries = readLayer(layer, warnings);
    for (const [name, raw] of Object.entries(entries)) {
      const problem = (text: string) => warnings.push(`${layer.file}: MCP server "${name}" is ignored: ${text}.`);
      if (!SERVER_NAME_PATTERN.test(name)) {
        problem('a server name may only use letters, digits, "_" and "-"');
        continue;
      }
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
        problem('its entry must be a JSON object');
        continue;
      }
      const entry = raw as Record<string, unknown>;
      const enabled = enabledOf(entry);
      if (Object.keys(entry).every((k) => TOGGLE_KEYS.has(k))) {
        const lower = servers.get(name);
        if (!lower) problem('it only sets "enabled", and no lower settings file defines this server');
        else {
          const description = typeof entry.description === 'string' ? { description: entry.description } : {};
          servers.set(name, { ...lower, config: { ...lower.config, ...description }, ...(enabled !== undefined ? { enabled, toggledIn: layer.file } : {}) });
        }
        continue;
      }
      const missing = new Set<string>();
      const guard: SecretGuard | undefined = layer.source === 'user' ? undefined : { withhold: isSecretEnvName, withheld: new Set() };
      const { disabled: _disabled, ...rest } = expandServerEntry(entry, env, missing, guard);
      const parsed = McpServerConfigSchema.safeParse(rest);
      if (!parsed.success) {
        problem(describeInvalid(entry, parsed.error));
        continue;
      }
      if (missing.size > 0) {
        warnings.push(`${layer.file}: MCP server "${name}": ${[...missing].map((v) => `\${${v}}`).join(', ')} ${missing.size === 1 ? 'is' : 'are'} not set in the environment (replaced by an empty string).`);
      }
      if (guard && guard.withheld.size > 0) {
        const names = [...guard.withheld].map((v) => `\${${v}}`).join(', ');
        warnings.push(`${layer.file}: MCP server "${name}": ${names} ${guard.withheld.size === 1 ? 'is a secret variable' : 'are secret variables'}, which only a server in your own settings may use (treated as unset).`);
      }
      servers.set(name, { name, config: parsed.data, source: layer.source, file: layer.file, enabled: enabled ?? true });
    }
  }
  return { servers: [...servers.values()], warnings };
}

/** The server entries of one file (read as the /mcp editor reads it); a broken file is a warning. */
function readLayer(layer: { file: string; key: McpServersKey }, warnings: string[]): Record<string, unknown> {
  const read = readMcpServers(layer.file, layer.key);
  if (read.status === 'ok') return read.servers;
  warnings.push(`${layer.file} cannot be used (${read.problem}); its MCP servers are ignored.`);
  return {};
}

/** `enabled: false` or Cline's `disabled: true`; undefined when the entry says neither. */
function enabledOf(entry: Record<string, unknown>): boolean | undefined {
  if (typeof entry.enabled === 'boolean') return entry.enabled;
  if (typeof entry.disabled === 'boolean') return !entry.disabled;
  return undefined;
}

/** The validation problem as one line: what is missing or wrong, for a stdio or an HTTP entry as the entry looks. */
function describeInvalid(entry: Record<string, unknown>, error: z.ZodError): string {
  const looksHttp = 'url' in entry || (typeof entry.type === 'string' && entry.type !== 'stdio');
  if (!('command' in entry) && !('url' in entry)) return 'it needs "command" (a program to run) or "url" (an HTTP server)';
  const issues = error.issues.filter((i) => !(i.code === 'invalid_union'));
  const flat = (issues.length > 0 ? issues : unionIssues(error, looksHttp)).map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`);
  return flat.slice(0, 3).join('; ');
}

/** The issues of the branch the entry was meant for (stdio when it has a command, HTTP when it has a url). */
function unionIssues(error: z.ZodError, http: boolean): z.core.$ZodIssue[] {
  const union = error.issues.find((i) => i.code === 'invalid_union') as (z.core.$ZodIssue & { errors?: z.core.$ZodIssue[][] }) | undefined;
  const branches = union?.errors ?? [];
  return branches[http ? 1 : 0] ?? branches[0] ?? error.issues;
}
