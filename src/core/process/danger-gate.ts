import { homedir } from 'node:os';
import { commandTooLong } from '../shell/command-limits';
import type { ShellCommand, ShellScript } from '../shell/shell-model';
import { readShell } from '../shell/shell-reader';
import { commandName } from '../shell/shell-text';
import { programOf } from './command-program';
import { DEFAULT_DANGER_RULES, type CommandView, type DangerRule } from './danger-rules';
import { folderAfter, isProtectedPath, protectedSet, stripSlash } from './protected-paths';

export { DEFAULT_DANGER_RULES, type CommandView, type DangerRule } from './danger-rules';

/**
 * Stage 1 of run_command (appendix E): commands that are refused whatever the approval level or the
 * user's rules say (the rules are in danger-rules.ts). The approval step (core/safety) runs the same
 * check first, on the same reading of the line, and adds the danger rules of the permission files;
 * nothing overrides a refusal. A line over the length limit is refused before anything else.
 */
export interface DangerVerdict {
  blocked: boolean;
  /** The rule's id, e.g. `delete-protected`. */
  rule?: string;
  /** One sentence for the model and the user: what was recognised. */
  reason?: string;
}

export interface DangerContext {
  /** Where the command runs (the workspace root). Relative targets resolve against it. */
  cwd?: string;
  /** The user's home folder; default `os.homedir()`. */
  home?: string;
}

/** The rule that refuses a command over MAX_COMMAND_CHARS (what to do instead is in its reason). */
export const COMMAND_TOO_LONG = 'command-too-long';

/**
 * Decides whether a command line is refused outright. Every simple command on the line is checked
 * (after `;`, `&&`, pipes, newlines including Unicode ones, inside `$(…)`, backticks, `bash -c`,
 * `eval`, here-documents fed to a shell, `find -exec`), so a dangerous command cannot hide behind a
 * harmless one.
 */
export function checkDanger(command: string, context: DangerContext = {}, rules: readonly DangerRule[] = DEFAULT_DANGER_RULES): DangerVerdict {
  const tooLong = commandTooLong(command);
  if (tooLong) return { blocked: true, rule: COMMAND_TOO_LONG, reason: tooLong };
  return checkScriptDanger(readShell(command), context, rules);
}

/** The same, on a line already read. */
export function checkScriptDanger(script: ShellScript, context: DangerContext = {}, rules: readonly DangerRule[] = DEFAULT_DANGER_RULES): DangerVerdict {
  if (script.tooLong) return { blocked: true, rule: COMMAND_TOO_LONG, reason: script.tooLong.reason };
  const home = stripSlash(context.home ?? homedir());
  const root = context.cwd ? stripSlash(context.cwd) : undefined;
  const protectedPaths = protectedSet(home, root);
  for (const command of script.commands) {
    const { name, args } = programOf(command.words);
    if (!name) continue;
    const cwd = folderAfter(command.cd, root, home, command.vars);
    const view: CommandView = {
      name,
      args: [...args, ...xargsInput(command, args)],
      redirects: command.redirects,
      ...(cwd !== undefined ? { cwd } : {}),
      home,
      isProtected: (path) => isProtectedPath(path, cwd, home, protectedPaths, command.vars),
      command,
    };
    for (const rule of rules) {
      const reason = rule.command?.(view);
      if (reason) return { blocked: true, rule: rule.id, reason };
    }
  }
  for (const rule of rules) {
    const reason = rule.script?.(script);
    if (reason) return { blocked: true, rule: rule.id, reason };
  }
  // A line that could not be read is still refused for the plainest catastrophe written in it.
  if (script.parseError && RM_ROOT_OR_HOME.test(script.text)) return { blocked: true, rule: 'delete-protected', reason: '`rm` of the root, or of the home folder' };
  return { blocked: false };
}

/** `rm -rf /`, `~`, `$HOME` anywhere in the text (each token after `rm` is one option: nothing to backtrack over). */
const RM_ROOT_OR_HOME = /(?:^|[^\w./-])rm\s+(?:-[\w-]+\s+)*(?:\/\*?|~\/?\*?|\$\{?HOME\}?\/?\*?)(?=$|[\s;&|)`:'"])/;

/** The words `xargs` passes to its command when what feeds it is written out (`echo ~ | xargs rm -rf`). */
function xargsInput(command: ShellCommand, args: readonly string[]): string[] {
  if (command.stdinText === undefined) return [];
  const xargs = command.words.findIndex((w) => commandName(w) === 'xargs');
  if (xargs === -1 || command.words.length - args.length <= xargs) return [];
  return command.stdinText.split(/\s+/).filter(Boolean);
}
