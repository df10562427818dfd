/* What the shell reader makes of a command line: the simple commands it runs and how they connect. */

/** Where a simple command stands: on the line itself, inside `$(…)`/backticks/`<(…)`, in a `( … )` subshell, in a script another command runs (`bash -c`, `eval`, `sh <<EOF`, `echo … | sh`), or run by `find -exec`. */
export type CommandOrigin = 'command' | 'substitution' | 'subshell' | 'script' | 'exec';

export interface ShellRedirect {
  /** `>`, `>>`, `<`, `&>`, `>&`, `<<`, `<<-`, `<<<`… */
  op: string;
  /** Quotes removed; a descriptor copy is `&1`; a here-document's is its delimiter. */
  target: string;
  /** A here-document's or here-string's text (the command reads it on its standard input). */
  body?: string;
}

export interface ShellCommand {
  /** Quotes removed and `$'…'` decoded; leading `NAME=value` assignments included; expansions and substitutions as written. */
  words: string[];
  redirects: ShellRedirect[];
  /** As written (trimmed), without the substitutions inside it. */
  text: string;
  /** As written, substitutions left in. */
  written: string;
  origin: CommandOrigin;
  /** Nesting: 0 on the line, 1 inside a script that a command of the line runs, and so on. */
  depth: number;
  /** The command whose words hold the substitution this one is in, or whose script (or `-exec`) this is. */
  parent?: number;
  /** Which of the parent's words (an index into its `words`), when this one runs inside a substitution of it. */
  parentWord?: number;
  /** The pipeline this command is a stage of (or is inside a stage of): its number in `ShellScript.pipelines` and the stage (0 = first). */
  pipe?: { id: number; stage: number };
  /** Started with `&`. */
  background: boolean;
  /** Inside the body of this function. */
  inFunction?: string;
  /**
   * The folders changed to before it on the line, as written (`~`, `sub`), in order; `null` when
   * one of them cannot be known (`cd "$dir"`, `cd -`, `popd`). Undefined: no change of folder.
   */
  cd?: readonly string[] | null;
  /** Variables set before it on the line by plain assignments (`H=$HOME`), their values as written. */
  vars?: Readonly<Record<string, string>>;
  /** Literal text it reads on standard input: its here-document or here-string, or what `echo`/`printf`/`cat <<EOF` pipe into it. */
  stdinText?: string;
}

export interface ShellFunction {
  name: string;
  /** Indices of the commands of its body. */
  body: number[];
}

export interface ShellPipeline {
  /** Indices of the commands of each stage, in order. */
  stages: number[][];
}

export interface ShellScript {
  /** The text as read (`\r\n` made `\n`; an unquoted carriage return or Unicode line separator made `\n`). */
  text: string;
  /** In the order they are written; a command's substitutions and scripts follow it. */
  commands: ShellCommand[];
  pipelines: ShellPipeline[];
  functions: ShellFunction[];
  /** The top-level pieces separated by `&&`, `||`, `;`, `&` and newlines, as [start, end) offsets into `text`. */
  pieces: Array<{ start: number; end: number }>;
  /** A nested command runs: `$(…)`, backticks, `<(…)`, `>(…)`, zsh `=(…)`, PowerShell-style `@(…)`, substitutions in here-documents. */
  substitution: boolean;
  /** `<(…)` or `>(…)`. */
  processSubstitution: boolean;
  /** A `( … )` subshell. */
  subshell: boolean;
  /** A here-document. */
  heredoc: boolean;
  /** Commands on more than one line. */
  multiline: boolean;
  /** An unquoted carriage return or Unicode line separator: what the user sees is not what runs. */
  deceptive?: string;
  /** A form that can run code unseen (`${var@P}`, `${!var}`, escapes in `${var=…}`, `<<<$(…)`, zsh `=(…)`, glob qualifiers, a `$'…'` command name). */
  risky?: string;
  /** The text could not be read reliably (a syntax error, a parse that overran its time, nesting too deep). */
  parseError?: string;
  /** Longer than the limit: not read at all. */
  tooLong?: { length: number; limit: number; reason: string };
}
