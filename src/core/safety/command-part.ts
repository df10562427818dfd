import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import type { ShellCommand, ShellScript } from '../shell/shell-model';
import { readShell } from '../shell/shell-reader';
import { commandWrites, type FileWrite } from './command-writes';
import { expandHomeVariable } from '../files/workspace-boundary';

/* The parts of a command line as the approval step judges them: each simple command, the program it runs, the files it writes. */

export interface Redirect {
  op: string;
  target: string;
}

export type PartOrigin = ShellCommand['origin'];

export interface CommandPart {
  /** As written (trimmed), without the substitutions inside it and without leading keywords (`do`, `then`…). */
  text: string;
  /** The same with its substitutions left in (`echo $(date)`): rules written for whole commands match this too. */
  written: string;
  /** Words with quotes removed, redirections excluded. */
  words: string[];
  redirects: Redirect[];
  writes: FileWrite[];
  origin: PartOrigin;
  /** Text after `cd`/`pushd` on the same line: relative paths no longer resolve against the workspace. */
  afterCd: boolean;
  /** The folders changed to before it, as written (`null`: one cannot be known); see partCwd. */
  cd?: readonly string[] | null;
  /** A pipe feeds its standard input. */
  piped: boolean;
  /** Literal text it reads on standard input (a here-document, or an `echo` piped into it). */
  stdinText?: string;
}

export interface SplitCommand {
  parts: CommandPart[];
  /** A nested command runs: `$(…)`, backticks, `<(…)`, `>(…)`, `=(…)`, `@(…)`, here-doc substitutions. */
  substitution: boolean;
  /** Commands on more than one line. */
  multiline: boolean;
  /** An unquoted carriage return or Unicode line separator: what the user sees is not what runs. */
  deceptive?: string;
  /** A form that can run code unseen (`${var@P}`, `${!var}`, escapes in `${var=…}`, `<<<$(…)`, zsh `=(…)`, glob qualifiers). */
  risky?: string;
  /** Unbalanced quotes or parentheses, an operator with nothing before or after it, a line that could not be read in time. */
  parseError?: string;
  /** Over the length limit: nothing was read (the danger step refuses it). */
  tooLong?: string;
  /** What the reader made of the line (the danger rules read it). */
  script: ShellScript;
}

/**
 * Splits a shell command line into the simple commands it runs (core/shell reads it), so each one
 * is judged on its own and an allowed first command never carries a denied one along.
 */
export function splitCommand(command: string): SplitCommand {
  const script = readShell(command);
  const parts = script.commands.map((c): CommandPart => {
    const part: CommandPart = {
      text: c.text,
      written: c.written,
      words: c.words,
      redirects: c.redirects.map((r) => ({ op: r.op, target: r.target })),
      writes: commandWrites(c.words, c.redirects),
      origin: c.origin,
      afterCd: c.cd !== undefined,
      piped: c.pipe !== undefined && c.pipe.stage > 0,
    };
    if (c.cd !== undefined) part.cd = c.cd;
    if (c.stdinText !== undefined) part.stdinText = c.stdinText;
    return part;
  });
  const split: SplitCommand = { parts, substitution: script.substitution, multiline: script.multiline, script };
  if (script.deceptive) split.deceptive = script.deceptive;
  if (script.risky) split.risky = script.risky;
  if (script.parseError) split.parseError = script.parseError;
  if (script.tooLong) split.tooLong = script.tooLong.reason;
  return split;
}

/** Writes that need approving by themselves (redirections, `tee`, `-fprint`), as opposed to what a program does with its operands. */
export function outputWrites(part: CommandPart): FileWrite[] {
  return part.writes.filter((w) => w.via !== 'program');
}

/** The folder a part runs in: the workspace, or where its `cd`s lead; undefined when that cannot be known. */
export function partCwd(part: Pick<CommandPart, 'cd'>, workspaceRoot: string, home = homedir()): string | undefined {
  if (part.cd === null) return undefined;
  let cwd = workspaceRoot;
  for (const target of part.cd ?? []) {
    const path = expandHomeVariable(target, home);
    if (path.startsWith('$')) return undefined;
    cwd = isAbsolute(path) ? path : resolve(cwd, path);
  }
  return cwd;
}
