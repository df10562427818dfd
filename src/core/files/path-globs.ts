// Globs and .gitignore rules for workspace-relative, "/"-separated paths, on picomatch and ignore (the
// .gitignore implementation eslint and prettier use), shared by list_files, search and its walker.
import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';

/**
 * Whether a path matches a glob: `*` and `?` within a name, `**` across folders, `[…]` (`[!…]`
 * negates), `{a,b}`, `\` escapes; names starting with "." match too. A glob without "/" matches the
 * name at any depth, as ripgrep's `--glob` and .gitignore read it ("*.ts"); one with "/" the whole
 * path ("src/**\/*.ts"), and a leading "/" anchors it at the root. A leading "./" and a trailing "/" are ignored.
 */
export function pathGlob(glob: string): (path: string) => boolean {
  const cleaned = glob.replace(/^\.\//, '').replace(/\/+$/, '');
  return picomatch(cleaned.replace(/^\/+/, ''), { dot: true, posix: true, basename: !cleaned.includes('/') });
}

/**
 * Whether a whole path matches a glob, as a rule names paths (permission rules): from the root of
 * the workspace for a relative path, or absolute; `*` and `?` within a name, `**` across folders,
 * `[…]`, `{a,b}`; names starting with "." match too; a leading `!` is a character, not a negation
 * (an allow rule must never widen that way). `nocase` for rules that deny or ask.
 */
export function wholePathGlob(glob: string, options: { nocase?: boolean } = {}): (path: string) => boolean {
  return picomatch(glob, { dot: true, posix: true, nonegate: true, nocase: options.nocase === true });
}

/**
 * The .gitignore rules in force somewhere in a workspace: .git/info/exclude and the .gitignore files
 * from the root down, each applying below its own folder. A deeper file's match overrides a
 * shallower one's; within a file the last matching rule wins (`!` re-includes).
 */
export class GitignoreStack {
  static readonly empty = new GitignoreStack([]);

  private constructor(private readonly files: ReadonlyArray<{ base: string; rules: Ignore }>) {}

  /** These rules, then those of `text`: a .gitignore in the folder `base` ('' for the root). */
  with(text: string, base: string): GitignoreStack {
    return /^[ \t]*[^#\s]/m.test(text) ? new GitignoreStack([...this.files, { base, rules: ignore().add(text) }]) : this;
  }

  /** Whether a path (relative to the workspace root) is ignored; `dir` for folders, which folder-only rules ("build/") match. */
  ignores(path: string, dir: boolean): boolean {
    for (let i = this.files.length - 1; i >= 0; i--) {
      const { base, rules } = this.files[i]!;
      if (base !== '' && !path.startsWith(`${base}/`)) continue;
      const rel = base === '' ? path : path.slice(base.length + 1);
      const verdict = rules.test(dir ? `${rel}/` : rel);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}
