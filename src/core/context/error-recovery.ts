import { toolArgumentsObject, type ToolCall } from '../messages';
import type { ToolErrorKind, ToolResult } from '../tools/tool';
import { getReminder } from './reminders';

/** The recovery classes of paper §2.3.4 (six typed ones), one for containers, and the rest. */
export type FailureClass = 'permission' | 'not_found' | 'edit_mismatch' | 'syntax' | 'rate_limit' | 'timeout' | 'docker' | 'generic';

/** The reminder (templates/reminders.md) that guides recovery from each class. */
export const RECOVERY_REMINDERS: Record<FailureClass, string> = {
  generic: 'failed_tool_nudge',
  permission: 'error_permission',
  not_found: 'error_not_found',
  edit_mismatch: 'error_edit_mismatch',
  syntax: 'error_syntax',
  rate_limit: 'error_rate_limit',
  timeout: 'error_timeout',
  docker: 'error_docker',
};

/** Tools that know their failure say so in `errorKind`; that wins over reading the text. */
const BY_KIND: Partial<Record<ToolErrorKind, FailureClass>> = {
  permission: 'permission',
  rejected: 'permission',
  not_found: 'not_found',
  edit_mismatch: 'edit_mismatch',
  syntax: 'syntax',
  rate_limit: 'rate_limit',
  timeout: 'timeout',
  // The error itself names the tool to use instead; its text must not be read as another class.
  too_large: 'generic',
};

/**
 * What the messages of compilers, shells, Node, Python, HTTP clients and Docker say, most specific
 * first: a Docker socket's "permission denied" is a Docker problem, a Python SyntaxError mentioning
 * a file is a syntax problem.
 */
const PATTERNS: ReadonlyArray<readonly [FailureClass, RegExp]> = [
  ['docker', /cannot connect to the docker daemon|is the docker daemon running|docker daemon is not running|error response from daemon|docker: (?:command )?not found|connect to the docker daemon socket/i],
  ['rate_limit', /too many requests|rate[ _-]?limit|\b(?:http|status|code|error)\b[ :/]{0,3}(?:1\.[01] )?429\b/i],
  ['edit_mismatch', /old_content\b[^\n]*\b(?:not found|does not match|no match)/i],
  ['syntax', /syntaxerror|syntax error|parse error|unexpected token|unexpected end of (?:input|file)|invalid syntax|unterminated string/i],
  ['permission', /\beacces\b|\beperm\b|permission denied|operation not permitted|access denied|read-only file system|\berofs\b/i],
  ['not_found', /\benoent\b|no such file or directory|command not found|cannot find module|module not found|does not exist|\bnot found\b/i],
  ['timeout', /timed out|\btimeout\b|\betimedout\b|deadline exceeded/i],
];

const CONTAINER_COMMAND = /^\s*(?:sudo\s+)?(?:docker(?:-compose)?|podman)\b/;

/**
 * The recovery class of a failed tool call: from the tool's own `errorKind` first, otherwise from
 * the text of the error, otherwise from the call (a failing `docker …` command is a Docker problem).
 */
export function classifyToolFailure(result: ToolResult, call?: ToolCall): FailureClass {
  const byKind = result.errorKind ? BY_KIND[result.errorKind] : undefined;
  if (byKind) return byKind;
  for (const [cls, pattern] of PATTERNS) if (pattern.test(result.output)) return cls;
  const command = call ? toolArgumentsObject(call.arguments).command : undefined;
  if (typeof command === 'string' && CONTAINER_COMMAND.test(command)) return 'docker';
  return 'generic';
}

const EXCERPT_MAX_CHARS = 600;
const EXCERPT_LINES = 8;
/** Lines kept above the telling one: a traceback's file, line and caret. */
const EXCERPT_CONTEXT = 3;

/**
 * The lines of an error that matter for its class: around the first line that shows the class (a
 * Python traceback's SyntaxError, a shell's "Permission denied"), else the first lines.
 */
export function errorExcerpt(output: string, cls: FailureClass): string {
  const lines = output.replace(/\r\n/g, '\n').split('\n');
  const pattern = PATTERNS.find(([c]) => c === cls)?.[1];
  const hit = pattern ? lines.findIndex((l) => pattern.test(l)) : -1;
  const start = Math.max(0, hit - EXCERPT_CONTEXT);
  // Leading blank lines go, a traceback's indentation stays.
  const excerpt = lines.slice(start, start + EXCERPT_LINES).join('\n').replace(/^(?:[ \t]*\n)+/, '').trimEnd();
  const cut = excerpt.length > EXCERPT_MAX_CHARS ? `${excerpt.slice(0, EXCERPT_MAX_CHARS)}…` : excerpt;
  return start > 0 ? `…\n${cut}` : cut;
}

/** A call as the reminders name it: the tool and what it acted on (`edit_file src/a.ts`, run_command `npm test`). */
export function describeCall(call: ToolCall): string {
  const args = toolArgumentsObject(call.arguments);
  const command = typeof args.command === 'string' ? args.command.trim() : undefined;
  if (command) return `${call.name} \`${command.length > 80 ? `${command.slice(0, 80)}…` : command}\``;
  const target = [args.file_path, args.path, args.plan_file_path, args.pattern, args.url].find((v) => typeof v === 'string' && v.trim() !== '');
  return typeof target === 'string' ? `${call.name} ${target}` : call.name;
}

/**
 * The recovery reminder for a failed call: its class's template, filled with the call and the
 * error's telling lines. A missing typed template falls back to the generic one; a missing generic
 * one means no reminder (undefined).
 */
export function recoveryReminder(call: ToolCall, result: ToolResult): string | undefined {
  const cls = classifyToolFailure(result, call);
  const vars = recoveryVars(call, result, cls);
  return getReminder(RECOVERY_REMINDERS[cls], vars) ?? (cls === 'generic' ? undefined : getReminder(RECOVERY_REMINDERS.generic, vars));
}

/** The variables of every recovery reminder: the call, and the telling lines of its error. */
export function recoveryVars(call: ToolCall, result: ToolResult, cls: FailureClass = classifyToolFailure(result, call)): { CALL: string; ERROR: string } {
  return { CALL: describeCall(call), ERROR: errorExcerpt(result.output, cls) };
}
