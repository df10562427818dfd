import { programOf } from '../process/command-program';
import { codeDeletes, inlineCode } from '../process/inline-code';
import { interpreterOf } from '../process/interpreters';
import type { CommandPart } from './command-part';

/* Checks on one parsed simple command that built-in caution rules use (default-rules.ts): on its words, not on its text. */

/** Git's options before the subcommand that take a value. */
const GIT_VALUED = /^(?:-C|-c|--git-dir|--work-tree|--namespace|--exec-path|--config-env|--super-prefix)$/;

/**
 * A push that rewrites or deletes what is on the remote, in any spelling: `-f`, `--force`,
 * `--force-with-lease`, `--force-if-includes`, `--mirror`, `--delete`/`-d`, `--prune`, a `+ref`
 * refspec, an empty source (`origin :branch`), or one that runs a program remotely (`--receive-pack`).
 */
export function isForcePush(words: readonly string[]): boolean {
  const { name, args } = programOf(words);
  if (name !== 'git') return false;
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += GIT_VALUED.test(args[i]!) ? 2 : 1;
  if (args[i] !== 'push') return false;
  let operands = 0;
  const rest = args.slice(i + 1);
  for (let j = 0; j < rest.length; j++) {
    const a = rest[j]!;
    if (a === '--') continue;
    if (/^--(?:force(?:-with-lease|-if-includes)?|mirror|delete|prune|receive-pack|exec)(?:=|$)/.test(a)) return true;
    if (a === '-o' || a === '--push-option' || a === '--repo') {
      j++;
      continue;
    }
    if (a.startsWith('--')) continue;
    if (/^-[a-zA-Z]+$/.test(a)) {
      if (/[fd]/.test(a.replace(/o.*$/, ''))) return true;
      if (a.endsWith('o')) j++;
      continue;
    }
    // The remote, then refspecs: `+main` forces, `:branch` deletes.
    if (operands++ > 0 && (a.startsWith('+') || a.startsWith(':'))) return true;
  }
  return false;
}

/** An interpreter that reads its program from a pipe whose text is not on the line (`… | sh`, `git show x | python3`). */
export function runsUnseenProgram(part: CommandPart): boolean {
  const interpreter = interpreterOf(part.words);
  return interpreter?.source.kind === 'stdin' && part.piped && part.stdinText === undefined;
}

/** Inline code for python, node, perl, ruby or php (`-c`, `-e`, a here-document) that deletes files. */
export function inlineCodeDeletes(part: CommandPart): boolean {
  const inline = inlineCode(part.words, part.stdinText);
  return inline !== undefined && codeDeletes(inline.code);
}
