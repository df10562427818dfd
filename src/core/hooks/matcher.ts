import type { HookEvent, HookGroup, HooksConfig } from './types';
import { MATCHER_EVENTS } from './types';

const NAME_LIST = /^[A-Za-z0-9_\- ,|]*$/;

/**
 * Claude Code's current matcher rule (code.claude.com/docs/en/hooks): `"*"`, `""` or no matcher
 * matches everything; a pattern of only letters, digits, `_`, `-`, spaces, `,` and `|` is an EXACT
 * name or a list of exact names (`Edit|Write`, `Edit, Write`); anything else is an unanchored
 * JavaScript RegExp (`Edit.*` also matches `NotebookEdit`). An invalid RegExp matches nothing.
 *
 * Divergence (peer README "Things to know" #5): Continue CLI treats every matcher as an unanchored
 * RegExp, so `"File"` matches `ReadFile`. We follow the Claude Code doc: `"File"` matches only a tool
 * named `File`. Exact names cannot fire by accident on tools that merely contain the word; who wants
 * the loose match writes `.*File.*`. Tested in hooks-matcher.test.ts and noted in the conformance suite.
 */
export function matcherMatches(matcher: string | undefined, value: string | readonly string[]): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  const values = typeof value === 'string' ? [value] : value;
  if (NAME_LIST.test(matcher)) {
    const names = matcher
      .split(/[|,]/)
      .map((n) => n.trim())
      .filter((n) => n !== '');
    return values.some((v) => names.includes(v));
  }
  let re: RegExp;
  try {
    re = new RegExp(matcher);
  } catch {
    return false;
  }
  return values.some((v) => re.test(v));
}

/**
 * The groups of `event` that apply to `value` (a tool name, or its aliases). Events without a
 * matcher (UserPromptSubmit, Stop) and calls without a value run every group.
 */
export function getMatchingHookGroups(config: HooksConfig, event: HookEvent | string, value?: string | readonly string[]): HookGroup[] {
  const groups = config[event] ?? [];
  if (value === undefined || !MATCHER_EVENTS.has(event as HookEvent)) return [...groups];
  return groups.filter((g) => matcherMatches(g.matcher, value));
}

/**
 * OpenDev tool names and the Claude Code names a `.claude/settings.json` matcher would use.
 * A matcher is tried against both (`Bash` matches `run_command`); stdin carries the OpenDev name.
 */
export const CLAUDE_TOOL_ALIASES: Readonly<Record<string, string>> = {
  run_command: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  list_files: 'Glob',
  search: 'Grep',
  spawn_subagent: 'Task',
  write_todos: 'TodoWrite',
};

export function toolMatchNames(toolName: string): string[] {
  const alias = CLAUDE_TOOL_ALIASES[toolName];
  return alias ? [toolName, alias] : [toolName];
}
