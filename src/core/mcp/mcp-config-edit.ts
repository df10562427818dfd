// Changes the MCP server configuration on disk: add, remove, enable, disable. OpenDev writes only its
// own settings files (the user's OPENDEV_HOME/settings.json and the project's .opendev/settings.json,
// key `mcp_servers`); the project's .mcp.json belongs to the user and other tools, so a server defined
// there is turned off by an `{ "enabled": false }` override in the project settings, never by
// rewriting it. Precedence for one name: project > .mcp.json > user.
import { join } from 'node:path';
import { projectSettingsFile } from '../config/layered-settings';
import { opendevPaths } from '../config/opendev-home';
import { MCP_ADD_USAGE, parseMcpAddArgs, parseMcpNameArgs, serverNameProblem, type McpAddRequest, type McpScope } from './mcp-edit-args';
import { readMcpServers, updateMcpServers, type McpServersKey, type McpServersRead } from './mcp-settings-file';
import { isPlainObject } from '../plain-object';
import type { McpConfigSource } from './mcp-types';

export interface McpConfigFiles {
  user: string;
  /** The project's files; undefined without a workspace. */
  project?: string;
  mcpJson?: string;
}

export function mcpConfigFiles(home: string, workspaceRoot?: string): McpConfigFiles {
  return {
    user: opendevPaths(home).settingsFile,
    ...(workspaceRoot ? { project: projectSettingsFile(workspaceRoot), mcpJson: join(workspaceRoot, '.mcp.json') } : {}),
  };
}

export interface McpEditOutcome {
  ok: boolean;
  /** What happened (or why nothing did), in words. */
  message: string;
  /** The request itself was wrong (an unknown server, a bad name): a usage error, not a failure. */
  usage?: boolean;
  /** The files written. */
  written: string[];
}

export interface McpEditOptions {
  /** How the user types the commands here (`/mcp`, `opendev mcp`), for the hints. */
  command: string;
}

interface Layer {
  source: McpConfigSource;
  file: string;
  key: McpServersKey;
  read: McpServersRead;
}

/** The files that can define `name`, highest precedence first. */
function layers(files: McpConfigFiles): Layer[] {
  const all: Array<Omit<Layer, 'read'>> = [
    ...(files.project ? [{ source: 'project' as const, file: files.project, key: 'mcp_servers' as const }] : []),
    ...(files.mcpJson ? [{ source: 'mcp.json' as const, file: files.mcpJson, key: 'mcpServers' as const }] : []),
    { source: 'user', file: files.user, key: 'mcp_servers' },
  ];
  return all.map((l) => ({ ...l, read: readMcpServers(l.file, l.key) }));
}

const entryIn = (layer: Layer, name: string): unknown => (layer.read.status === 'ok' ? layer.read.servers[name] : undefined);
/** A full entry (a program or an address), as opposed to an override such as `{ "enabled": false }`. */
const isDefinition = (entry: unknown): boolean => isPlainObject(entry) && ('command' in entry || 'url' in entry);
const writable = (layer: Layer): boolean => layer.source !== 'mcp.json';

export function describeSource(source: McpConfigSource, file: string): string {
  return source === 'user' ? `the user settings (${file})` : source === 'project' ? `the project settings (${file})` : file;
}

const done = (message: string, written: string[]): McpEditOutcome => ({ ok: true, message, written });
const failed = (message: string, written: string[] = []): McpEditOutcome => ({ ok: false, message, written });
const wrong = (message: string): McpEditOutcome => ({ ok: false, usage: true, message, written: [] });

/** Adds a server to the user settings, or with `scope: 'project'` to the project's. */
export async function addMcpServer(files: McpConfigFiles, request: McpAddRequest, options: McpEditOptions): Promise<McpEditOutcome> {
  const badName = serverNameProblem(request.name);
  if (badName) return wrong(badName);
  const file = request.scope === 'project' ? files.project : files.user;
  if (!file) return wrong('--project needs a project folder: open one (or pass -C <folder>) first.');
  const all = layers(files);
  const problem = await updateMcpServers(file, 'mcp_servers', (servers) => {
    if (isDefinition(servers[request.name])) {
      return { changed: false, refusal: `"${request.name}" is already configured in ${file}. Remove it first (${options.command} remove ${request.name}) to replace it.` };
    }
    servers[request.name] = request.config;
    return { changed: true };
  });
  if (problem) return failed(problem);
  const notes = [`Added MCP server "${request.name}" to ${describeSource(request.scope, file)}.`];
  const index = all.findIndex((l) => l.source === request.scope);
  const above = all.slice(0, index).find((l) => isDefinition(entryIn(l, request.name)));
  const below = all.slice(index + 1).find((l) => isDefinition(entryIn(l, request.name)));
  if (above) notes.push(`Note: ${describeSource(above.source, above.file)} also defines "${request.name}" and takes precedence here.`);
  else if (below) notes.push(`It replaces the definition in ${describeSource(below.source, below.file)}.`);
  if (request.scope === 'project' && ('env' in request.config || 'headers' in request.config)) {
    notes.push('Mind that the project settings may be shared (committed with the repository), and they now hold the --env / --header values.');
  }
  return done(notes.join('\n'), [file]);
}

/**
 * Removes a server's entry from the OpenDev settings file it comes from (the one that wins), or with
 * `scope` from that file. A server defined only in .mcp.json is not removed: that file is not ours.
 */
export async function removeMcpServer(files: McpConfigFiles, name: string, options: McpEditOptions & { scope?: McpScope }): Promise<McpEditOutcome> {
  const badName = serverNameProblem(name);
  if (badName) return wrong(badName);
  const all = layers(files);
  const candidates = all.filter((l) => writable(l) && (options.scope ? l.source === options.scope : isDefinition(entryIn(l, name))));
  const target = options.scope ? candidates.find((l) => entryIn(l, name) !== undefined) : candidates[0];
  if (!target) {
    const shared = all.find((l) => l.source === 'mcp.json' && entryIn(l, name) !== undefined);
    if (shared && !options.scope) {
      return wrong(`"${name}" is defined in ${shared.file}, which OpenDev does not rewrite (other tools read it too). Edit that file, or turn the server off here with ${options.command} disable ${name}.`);
    }
    const where = options.scope ? ` in ${describeSource(options.scope, options.scope === 'project' ? (files.project ?? '.opendev/settings.json') : files.user)}` : '';
    return wrong(`No MCP server "${name}" is configured${where}. ${options.command} list shows the configured ones.`);
  }
  const problem = await updateMcpServers(target.file, 'mcp_servers', (servers) => {
    if (!(name in servers)) return { changed: false, refusal: `"${name}" is no longer in ${target.file}.` };
    delete servers[name];
    return { changed: true };
  });
  if (problem) return failed(problem);
  const notes = [`Removed MCP server "${name}" from ${describeSource(target.source, target.file)}.`];
  const written = [target.file];
  const remaining = all.find((l) => l !== target && isDefinition(entryIn(l, name)));
  if (remaining) notes.push(`"${name}" is still defined in ${describeSource(remaining.source, remaining.file)}, which now applies.`);
  // With no definition left, an override such as { "enabled": false } elsewhere switches nothing: it goes too.
  for (const layer of remaining ? [] : all.filter((l) => l !== target && writable(l) && isPlainObject(entryIn(l, name)))) {
    const orphan = await updateMcpServers(layer.file, 'mcp_servers', (servers) => {
      if (!isPlainObject(servers[name]) || isDefinition(servers[name])) return { changed: false, refusal: '' };
      delete servers[name];
      return { changed: true };
    });
    if (orphan) notes.push(orphan);
    else written.push(layer.file);
  }
  return done(notes.join('\n'), written);
}

/** What an entry says: `enabled`, or Cline's `disabled` (as the loader reads them); undefined when neither. */
function switchOf(entry: unknown): boolean | undefined {
  if (!isPlainObject(entry)) return undefined;
  if (typeof entry.enabled === 'boolean') return entry.enabled;
  return typeof entry.disabled === 'boolean' ? !entry.disabled : undefined;
}

/** Whether the server named is on: the highest switch from its definition up, else on. */
function effectiveEnabled(above: Layer[], definition: Layer, name: string): boolean {
  for (const layer of [...above, definition]) {
    const on = switchOf(entryIn(layer, name));
    if (on !== undefined) return on;
  }
  return true;
}

/**
 * Turns a server on or off where it is defined: `enabled` in the OpenDev settings file it comes
 * from; for a .mcp.json server, an `{ "enabled": false }` override in the project settings (removed
 * again by enable). Overrides above the definition that would undo the change are removed.
 */
export async function setMcpServerEnabled(files: McpConfigFiles, name: string, enabled: boolean, options: McpEditOptions): Promise<McpEditOutcome> {
  const badName = serverNameProblem(name);
  if (badName) return wrong(badName);
  const all = layers(files);
  const index = all.findIndex((l) => isDefinition(entryIn(l, name)));
  if (index < 0) {
    const broken = all.filter((l) => l.read.status === 'broken').map((l) => (l.read.status === 'broken' ? ` (${l.file} could not be read: ${l.read.problem})` : ''));
    return wrong(`No MCP server "${name}" is configured${broken.join('')}. ${options.command} list shows the configured ones.`);
  }
  const definition = all[index]!;
  const above = all.slice(0, index);
  const word = enabled ? 'enabled' : 'disabled';
  if (effectiveEnabled(above, definition, name) === enabled) return done(`MCP server "${name}" is already ${word}.`, []);

  const written: string[] = [];
  // Overrides above the definition saying the opposite go (an override holding only that goes whole).
  for (const layer of above.filter((l) => writable(l) && switchOf(entryIn(l, name)) === !enabled)) {
    const problem = await updateMcpServers(layer.file, 'mcp_servers', (servers) => {
      const entry = servers[name];
      if (!isPlainObject(entry)) return { changed: false, refusal: `"${name}" changed in ${layer.file} meanwhile; try again.` };
      const { enabled: _enabled, disabled: _disabled, ...rest } = entry;
      if (Object.keys(rest).length === 0 && !isDefinition(entry)) delete servers[name];
      else servers[name] = rest;
      return { changed: true };
    });
    if (problem) return failed(problem, written);
    written.push(layer.file);
  }
  const all2 = layers(files);
  if (effectiveEnabled(all2.slice(0, index), all2[index]!, name) !== enabled) {
    const target = writable(definition) ? definition : all2.find((l) => l.source === 'project');
    if (!target) return failed(`"${name}" comes from ${definition.file} and there is no project settings file to override it in.`, written);
    const problem = await updateMcpServers(target.file, 'mcp_servers', (servers) => {
      const entry = servers[name];
      if (entry !== undefined && !isPlainObject(entry)) return { changed: false, refusal: `the entry "${name}" in ${target.file} is not an object; fix it first.` };
      const { disabled: _disabled, ...rest } = entry ?? {};
      servers[name] = { ...rest, enabled };
      return { changed: true };
    });
    if (problem) return failed(problem, written);
    written.push(target.file);
  }
  const changed = [...new Set(written)];
  const shared = writable(definition) ? '' : ` ${definition.file} is left as it is${enabled ? '' : '; the project settings override it'}.`;
  return done(`MCP server "${name}" is ${word} (changed ${changed.join(' and ')}).${shared}`, changed);
}

export type McpEditSubcommand = 'add' | 'remove' | 'enable' | 'disable';

/** A change as typed (`add <name> --command …`, `disable <name>`…), for /mcp and `opendev mcp` alike. */
export async function runMcpEdit(files: McpConfigFiles, subcommand: McpEditSubcommand, words: readonly string[], options: McpEditOptions): Promise<McpEditOutcome> {
  if (subcommand === 'add') {
    const request = parseMcpAddArgs(words);
    if ('problem' in request) return wrong(`${request.problem}\nUsage: ${options.command} ${MCP_ADD_USAGE}`);
    return addMcpServer(files, request, options);
  }
  const target = parseMcpNameArgs(subcommand, words);
  if ('problem' in target) return wrong(target.problem.replace('Usage: ', `Usage: ${options.command} `));
  if (subcommand === 'remove') return removeMcpServer(files, target.name, { ...options, ...(target.scope ? { scope: target.scope } : {}) });
  return setMcpServerEnabled(files, target.name, subcommand === 'enable', options);
}
