import { interpreterOf } from './interpreters';

/**
 * Code given inline to an interpreter other than a shell (`python3 -c '…'`, `node -e '…'`,
 * `perl -e`, `ruby -e`, `php -r`, a here-document fed to `python3 -`), and whether it deletes
 * files, or the home folder or the root. Shell code is read as commands instead (core/shell).
 * The patterns are plain alternations: linear in the code's length.
 */
export interface InlineCode {
  /** The interpreter's name (`python3`). */
  program: string;
  code: string;
}

export function inlineCode(words: readonly string[], stdinText: string | undefined): InlineCode | undefined {
  const interpreter = interpreterOf(words);
  if (!interpreter || interpreter.family === 'shell') return undefined;
  const { source, args, name } = interpreter;
  if (source.kind === 'code' && args[source.index] !== undefined) return { program: name, code: args[source.index]! };
  if (source.kind === 'stdin' && stdinText !== undefined) return { program: name, code: stdinText };
  return undefined;
}

/** File-deleting calls of Python, Node, Perl, Ruby and PHP, and shell-outs to `rm`. */
const DELETES = /\b(?:rmtree|remove_tree|removedirs|rm_rf|rm_r|rmSync|rmdirSync|unlinkSync|rimraf|emptyDirSync|remove_entry(?:_secure)?|remove_dir|send2trash)\b|\b(?:os|fs|shutil|FileUtils|File|Dir|Deno|fse|fsp|promises|Path|pathlib)\s*\.\s*(?:remove|unlink|rmdir|rm|delete|rmtree|rm_rf|rm_r|emptyDir)\b|\.(?:unlink|rmdir|rmtree)\s*\(|\bunlink\s*[\s(]|\brmdir\s*\(|\brm\s+-[a-zA-Z]*[rRf]/;

/** The home folder or the root named in code: `expanduser("~")`, `Path.home()`, `os.homedir()`, `$ENV{HOME}`, `"~"`, `"/"`. */
const HOME_OR_ROOT = /expanduser\s*\(\s*["']~|\bPath\s*\.\s*home\s*\(|\bhomedir\s*\(|\$ENV\s*\{\s*["']?HOME|\bENV\s*\[\s*["']HOME|environ(?:\s*\.\s*get\s*\(|\s*\[)\s*["']HOME|getenv\s*\(\s*["']HOME|\bDir\s*\.\s*home\b|process\s*\.\s*env\s*\.\s*HOME|["'](?:~|~\/|\/|\/\*|\$HOME|\$HOME\/|\/home|\/Users|\/root)["']|\brm\s+-(?=[a-zA-Z]*[rRf])[a-zA-Z]+\s+(?:~|\/|\$HOME)(?=[\s'"/;)]|$)/;

/** Whether the code deletes files at all. */
export function codeDeletes(code: string): boolean {
  return DELETES.test(code);
}

/** Whether the code deletes and names the home folder or the root. */
export function codeDeletesHomeOrRoot(code: string): boolean {
  return DELETES.test(code) && HOME_OR_ROOT.test(code);
}
