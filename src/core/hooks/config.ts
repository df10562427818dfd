import { join } from 'node:path';
import * as z from 'zod';
import { projectSettingsFile } from '../config/layered-settings';
import { opendevPaths, resolveOpendevHome } from '../config/opendev-home';
import { readSettingsFile } from '../config/settings-file';
import type { HookHandler, HooksConfig } from './types';
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

// The Claude Code hook format: unknown keys are kept (a handler type or option a newer version adds).
const HandlerSchema = z.looseObject({ type: z.string() });
const CommandHandlerSchema = z.looseObject({ type: z.literal('command'), command: z.string().trim().min(1) });
const GroupSchema = z.looseObject({ matcher: z.string().optional(), hooks: z.array(z.unknown()) });
const GroupsSchema = z.array(z.unknown());

/** Validates a `hooks` value; bad entries are dropped with a warning naming where they are. */
export function parseHooksConfig(value: unknown, origin = 'settings'): { hooks: HooksConfig; warnings: string[] } {
  const warnings: string[] = [];
  const hooks: HooksConfig = {};
  if (!isPlainObject(value)) {
    warnings.push(`hooks: "hooks" in ${origin} must be an object; ignored`);
    return { hooks, warnings };
  }
  for (const [event, groups] of Object.entries(value)) {
    const list = GroupsSchema.safeParse(groups);
    if (!list.success) {
      warnings.push(`hooks: ${origin}: hooks.${event} must be an array; ignored`);
      continue;
    }
    hooks[event] = list.data.flatMap((entry, i) => {
      const at = `hooks.${event}[${i}]`;
      const group = GroupSchema.safeParse(entry);
      if (!group.success) {
        const badMatcher = isPlainObject(entry) && Array.isArray(entry.hooks);
        warnings.push(`hooks: ${origin}: ${badMatcher ? `${at}.matcher must be a string` : `${at} needs a "hooks" array`}; ignored`);
        return [];
      }
      const handlers = group.data.hooks.filter((handler, j): handler is HookHandler => {
        if (!HandlerSchema.safeParse(handler).success) warnings.push(`hooks: ${origin}: ${at}.hooks[${j}] needs a "type"; ignored`);
        else if ((handler as HookHandler).type === 'command' && !CommandHandlerSchema.safeParse(handler).success) {
          warnings.push(`hooks: ${origin}: ${at}.hooks[${j}] is a command hook without a command; ignored`);
        } else return true;
        return false;
      });
      return [group.data.matcher === undefined ? { hooks: handlers } : { matcher: group.data.matcher, hooks: handlers }];
    });
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
