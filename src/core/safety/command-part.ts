import { programOf } from '../process/command-program';

/* What the command splitter finds: the simple commands of a line, the program each runs, the files it writes. */

export interface Redirect {
  op: string;
  target: string;
}

/** A file a command writes: a redirection (`>`, `>>`, `&>`…), a `tee` operand, `find -fprint`. */
export interface FileWrite {
  target: string;
  via: 'redirect' | 'tee' | 'find';
}

export type PartOrigin = 'command' | 'substitution' | 'subshell' | 'script' | 'exec';

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
  /** Unbalanced quotes or parentheses, an operator with nothing before or after it. */
  parseError?: string;
}

const DEV_SINKS = /^\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)$/;

/** The files a part writes: redirections (not descriptor copies or /dev/null), `tee` operands, `find -fprint` targets. */
export function fileWrites(part: CommandPart): FileWrite[] {
  const writes: FileWrite[] = [];
  for (const r of part.redirects) {
    if (!r.op.includes('>') || r.target.startsWith('&') || DEV_SINKS.test(r.target)) continue;
    writes.push({ target: r.target, via: 'redirect' });
  }
  const { name, args } = programOf(part.words);
  if (name === 'tee') for (const a of args) if (!a.startsWith('-') && !DEV_SINKS.test(a)) writes.push({ target: a, via: 'tee' });
  if (name === 'find') {
    args.forEach((a, j) => {
      if (/^-(?:fprint0?|fprintf|fls)$/.test(a) && args[j + 1] !== undefined) writes.push({ target: args[j + 1]!, via: 'find' });
    });
  }
  return writes;
}
