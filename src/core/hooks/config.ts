import { join } from 'node:path';
import { projectSettingsFile } from '../config/layered-settings';
import { opendevPaths, resolveOpendevHome } from '../config/opendev-home';
import { readSettingsFile } from '../config/settings-file';
import type { HookGroup, HookHandler, HooksConfig } from './types';
import { isPlainObject } from '../plain-object';

export interface LoadedHooksConfig {
  hooks: HooksConfig;
  /** `disableAllHooks: true` in any file: nothing runs (the hooks are still listed). */
  disabled: boolean;
  /** Unreadable or malformed files and entries: reported, never thrown. */
  warnings: string[];
  /** The files that contributed hooks, in merge order. */
  sources: string[];
  /** Hooks of an untrusted project, not loaded: per file, the events they are for (or its `disableAllHooks`, not applied). */
  untrusted: Array<{ file: string; events: string[]; count: number; disablesAll?: boolean }>;
}

export interface HooksConfigLocations {
  workspaceRoot: string;
  /** Default: `resolveOpendevHome()`. */
  opendevHome?: string;
  /**
   * The user trusts the folder's configuration (core/trust). Until then a hook from the project's
   * files (.claude/, .opendev/) is a program of the repository's: it is listed, never run; so is
   * their `disableAllHooks`, which would switch off the user's own hooks too.
   */
  projectTrusted?: boolean;
}

/**
 * The settings files read, in merge order (global first, project after):
 * `OPENDEV_HOME/settings.json`, `<ws>/.claude/settings.json`, `<ws>/.claude/settings.local.json`,
 * `<ws>/.opendev/settings.json`.
 */
export function hooksSettingsFiles(loc: HooksConfigLocations): string[] {
  const home = loc.opendevHome ?? resolveOpendevHome();
  return [
    opendevPaths(home).settingsFile,
    join(loc.workspaceRoot, '.claude', 'settings.json'),
    join(loc.workspaceRoot, '.claude', 'settings.local.json'),
    projectSettingsFile(loc.workspaceRoot),
  ];
}

/** Loads and merges every settings file's `hooks` (per event, in file order). Never throws. */
export function loadHooksConfig(loc: HooksConfigLocations): LoadedHooksConfig {
  const out: LoadedHooksConfig = { hooks: {}, disabled: false, warnings: [], sources: [], untrusted: [] };
  const userFile = hooksSettingsFiles(loc)[0];
  for (const file of hooksSettingsFiles(loc)) {
    // The same reader as the agent settings (src/core/config/layered-settings.ts): never throws, never writes.
    const read = readSettingsFile(file);
    if (read.status === 'missing') continue;
    if (read.status !== 'ok') {
      if (read.status === 'unreadable') out.warnings.push(`hooks: cannot read ${file}: ${read.problem}`);
      else if (read.status === 'invalid-json') out.warnings.push(`hooks: ${file} is not valid JSON (${read.problem}); its hooks are ignored`);
      else out.warnings.push(`hooks: ${file} is not a JSON object; ignored`);
      continue;
    }
    const settings = read.settings;
    const untrusted = file !== userFile && !loc.projectTrusted;
    if (settings.disableAllHooks === true) {
      // Turning every hook off would switch off the user's own (a PreToolUse policy, say): a trusted folder's choice.
      if (untrusted) out.untrusted.push({ file, events: [], count: 0, disablesAll: true });
      else out.disabled = true;
    }
    if (settings.hooks === undefined) continue;
    const parsed = parseHooksConfig(settings.hooks, file);
    if (untrusted) {
      const events = Object.entries(parsed.hooks).filter(([, groups]) => (groups ?? []).some((g) => g.hooks.length > 0));
      const count = events.reduce((n, [, groups]) => n + (groups ?? []).reduce((m, g) => m + g.hooks.length, 0), 0);
      if (count > 0) out.untrusted.push({ file, events: events.map(([event]) => event), count });
      continue;
    }
    out.warnings.push(...parsed.warnings);
    if (Object.keys(parsed.hooks).length > 0) out.sources.push(file);
    out.hooks = mergeHooksConfigs(out.hooks, parsed.hooks);
  }
  return out;
}

/** Validates a `hooks` value; bad entries are dropped with a warning. */
export function parseHooksConfig(value: unknown, origin = 'settings'): { hooks: HooksConfig; warnings: string[] } {
  const warnings: string[] = [];
  const hooks: HooksConfig = {};
  if (!isPlainObject(value)) {
    warnings.push(`hooks: "hooks" in ${origin} must be an object; ignored`);
    return { hooks, warnings };
  }
  for (const [event, groups] of Object.entries(value)) {
    if (!Array.isArray(groups)) {
      warnings.push(`hooks: ${origin}: hooks.${event} must be an array; ignored`);
      continue;
    }
    const kept: HookGroup[] = [];
    groups.forEach((group: unknown, i) => {
      if (!isPlainObject(group) || !Array.isArray(group.hooks)) {
        warnings.push(`hooks: ${origin}: hooks.${event}[${i}] needs a "hooks" array; ignored`);
        return;
      }
      if (group.matcher !== undefined && typeof group.matcher !== 'string') {
        warnings.push(`hooks: ${origin}: hooks.${event}[${i}].matcher must be a string; ignored`);
        return;
      }
      const handlers: HookHandler[] = [];
      group.hooks.forEach((h: unknown, j) => {
        if (!isPlainObject(h) || typeof h.type !== 'string') {
          warnings.push(`hooks: ${origin}: hooks.${event}[${i}].hooks[${j}] needs a "type"; ignored`);
          return;
        }
        if (h.type === 'command' && (typeof h.command !== 'string' || h.command.trim() === '')) {
          warnings.push(`hooks: ${origin}: hooks.${event}[${i}].hooks[${j}] is a command hook without a command; ignored`);
          return;
        }
        handlers.push(h as HookHandler);
      });
      const g: HookGroup = { hooks: handlers };
      if (typeof group.matcher === 'string') g.matcher = group.matcher;
      kept.push(g);
    });
    hooks[event] = kept;
  }
  return { hooks, warnings };
}

/** Per event: `a`'s groups, then `b`'s. */
export function mergeHooksConfigs(a: HooksConfig, b: HooksConfig): HooksConfig {
  const out: HooksConfig = {};
  for (const [event, groups] of Object.entries(a)) out[event] = [...(groups ?? [])];
  for (const [event, groups] of Object.entries(b)) out[event] = [...(out[event] ?? []), ...(groups ?? [])];
  return out;
}
