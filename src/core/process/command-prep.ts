import { matchServerPattern } from './server-patterns';
import { splitTopLevel } from '../shell/shell-reader';
import { isAssignment } from '../shell/shell-text';

/**
 * Stages 2 and 3 of run_command (appendix E): what is changed before a command runs, and whether it
 * goes to the background. Nothing here is hidden from the model: every change comes back as a note.
 *
 * - Known interactive package-manager prompts get `yes |` (only when the command has no yes-flag of
 *   its own, and only for the command that prompts: `apt-get update && yes | apt-get install x`).
 * - The environment says "nobody is at the keyboard": PYTHONUNBUFFERED=1 (output arrives as it is
 *   printed), git never asks for credentials and never pages, Debian's frontend is non-interactive,
 *   npx installs without asking. CI=1 is NOT set: it changes what builds and tests do (warnings
 *   become errors in some builds, snapshot tests stop writing), which the user did not ask for.
 * - Stdin is /dev/null for foreground commands (set by the runner), so a prompt reads EOF instead
 *   of hanging until the idle timeout.
 * - Servers (the sixteen patterns) and lines ending in a lone `&` become background tasks.
 */
export interface PreparedCommand {
  /** The command line that runs. */
  command: string;
  /** Added to the environment. */
  env: Record<string, string>;
  /** Why the command runs in the background even though the model did not ask for it. */
  promotedBy?: string;
  /** What was changed, for the model (empty when the command runs as written). */
  notes: string[];
}

export const COMMAND_ENV: Readonly<Record<string, string>> = {
  PYTHONUNBUFFERED: '1',
  GIT_TERMINAL_PROMPT: '0',
  GIT_PAGER: 'cat',
  PAGER: 'cat',
  DEBIAN_FRONTEND: 'noninteractive',
  npm_config_yes: 'true',
};

/** Package-manager commands that stop to ask "Do you want to continue? [Y/n]", and the flags that answer it. */
const INTERACTIVE: ReadonlyArray<{ pattern: RegExp; yes: RegExp }> = [
  { pattern: /^(?:apt-get|apt|aptitude)\s+(?:\S+\s+)*?(?:install|reinstall|remove|purge|upgrade|dist-upgrade|full-upgrade|autoremove|build-dep)\b/, yes: /(?:^|\s)(?:-[a-zA-Z]*y[a-zA-Z]*|--yes|--assume-yes|-qq|--quiet=2)(?=\s|$)/ },
  { pattern: /^(?:yum|dnf|microdnf)\s+(?:\S+\s+)*?(?:install|reinstall|remove|erase|update|upgrade|groupinstall|autoremove|downgrade)\b/, yes: /(?:^|\s)(?:-[a-zA-Z]*y[a-zA-Z]*|--assumeyes)(?=\s|$)/ },
  { pattern: /^pacman\s+-[a-zA-Z]*[SRU]/, yes: /(?:^|\s)--noconfirm(?=\s|$)/ },
  { pattern: /^(?:conda|mamba|micromamba)\s+(?:install|create|remove|uninstall|update|upgrade)\b/, yes: /(?:^|\s)(?:-[a-zA-Z]*y[a-zA-Z]*|--yes)(?=\s|$)/ },
  { pattern: /^(?:pip\d?(?:\.\d+)?|python\d?(?:\.\d+)?\s+-m\s+pip)\s+uninstall\b/, yes: /(?:^|\s)(?:-[a-zA-Z]*y[a-zA-Z]*|--yes)(?=\s|$)/ },
];

export function prepareCommand(command: string): PreparedCommand {
  const notes: string[] = [];
  let text = command.trim();
  let promotedBy: string | undefined;

  // A line ending in a lone `&` means "run this in the background": do that properly.
  const trailing = /(?:^|[^&|>])&\s*$/.exec(text);
  if (trailing) {
    text = text.replace(/&\s*$/, '').trimEnd();
    promotedBy = 'the command ends with `&`';
  }

  const withYes = addYes(text);
  if (withYes !== text) {
    notes.push(`Ran as \`${withYes}\`: the package manager would otherwise stop to ask for confirmation.`);
    text = withYes;
  }

  if (!promotedBy) {
    const server = matchServerPattern(text);
    if (server) promotedBy = `it starts a server (${server.name})`;
  }
  return { command: text, env: { ...COMMAND_ENV }, notes, ...(promotedBy ? { promotedBy } : {}) };
}

/** Puts `yes |` in front of each piece of the line that would stop at a confirmation prompt. */
function addYes(text: string): string {
  let out = '';
  let last = 0;
  for (const { start, end } of splitTopLevel(text)) {
    const piece = text.slice(start, end);
    const lead = /^\s*/.exec(piece)![0].length;
    const body = piece.slice(lead);
    const words = body.split(/\s+/);
    let skip = 0;
    while (skip < words.length && isAssignment(words[skip]!)) skip++;
    const commandPart = words.slice(skip).join(' ');
    // Only a piece that is one command (no pipe feeding it already, no pipeline of its own).
    const firstCommand = commandPart.split('|')[0]!;
    const rule = INTERACTIVE.find((r) => r.pattern.test(commandPart));
    if (rule && !rule.yes.test(firstCommand) && !/^yes\b/.test(commandPart)) {
      out += text.slice(last, start + lead) + 'yes | ';
      last = start + lead;
    }
  }
  return out + text.slice(last);
}
