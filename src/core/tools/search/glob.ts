/**
 * Globs for the built-in search: gitignore rules and the tool's `glob` filter, with ripgrep's
 * semantics so both engines select the same files. Paths are relative, with forward slashes.
 */

/** Translates a glob to a regex source matching a whole relative path (`*` stays within a segment). */
export function globToRegexSource(glob: string, braces: boolean): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const atStart = i === 0 || glob[i - 1] === '/';
        const next = glob[i + 2];
        if (atStart && next === '/') {
          out += '(?:.*/)?';
          i += 2;
        } else if (atStart && next === undefined) {
          out += '.*';
          i += 1;
        } else {
          out += '[^/]*';
          i += 1;
        }
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) out += '\\[';
      else {
        let body = glob.slice(i + 1, close);
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        out += `[${body.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (c === '\\' && i + 1 < glob.length) {
      out += escapeRegex(glob[i + 1]!);
      i++;
    } else if (braces && c === '{') {
      out += '(?:';
      depth++;
    } else if (braces && c === '}' && depth > 0) {
      out += ')';
      depth--;
    } else if (braces && c === ',' && depth > 0) out += '|';
    else out += escapeRegex(c);
  }
  return out + ')'.repeat(depth);
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

interface PathRule {
  negated: boolean;
  dirOnly: boolean;
  /** Matched against the basename when the glob has no slash, else against the path from `base`. */
  basenameOnly: boolean;
  regex: RegExp;
}

function compileRule(raw: string, braces: boolean): PathRule | undefined {
  let text = raw;
  let negated = false;
  if (text.startsWith('!')) {
    negated = true;
    text = text.slice(1);
  } else if (text.startsWith('\\!') || text.startsWith('\\#')) text = text.slice(1);
  let dirOnly = false;
  if (text.endsWith('/')) {
    dirOnly = true;
    text = text.replace(/\/+$/, '');
  }
  if (text === '') return undefined;
  const basenameOnly = !text.includes('/');
  if (text.startsWith('/')) text = text.slice(1);
  return { negated, dirOnly, basenameOnly, regex: new RegExp(`^${globToRegexSource(text, braces)}$`) };
}

function ruleMatches(rule: PathRule, relPath: string, isDir: boolean): boolean {
  if (rule.dirOnly && !isDir) return false;
  const subject = rule.basenameOnly ? relPath.slice(relPath.lastIndexOf('/') + 1) : relPath;
  return rule.regex.test(subject);
}

/** The rules of one `.gitignore`, relative to the folder that holds it. */
export class GitignoreRules {
  private readonly rules: PathRule[];

  constructor(
    /** Workspace-relative folder of the .gitignore ('' for the root). */
    readonly base: string,
    text: string,
  ) {
    this.rules = text
      .split(/\r?\n/)
      .map((line) => line.replace(/(?<!\\)\s+$/, ''))
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => compileRule(line, false))
      .filter((rule): rule is PathRule => rule !== undefined);
  }

  /** 'ignore' / 'keep' when a rule decides (the last matching one wins), else undefined. */
  verdict(workspaceRelPath: string, isDir: boolean): 'ignore' | 'keep' | undefined {
    const prefix = this.base === '' ? '' : `${this.base}/`;
    if (prefix && !workspaceRelPath.startsWith(prefix)) return undefined;
    const rel = workspaceRelPath.slice(prefix.length);
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i]!;
      if (ruleMatches(rule, rel, isDir)) return rule.negated ? 'keep' : 'ignore';
    }
    return undefined;
  }
}

/** A stack of .gitignore files, outermost first: a deeper file overrides a shallower one. */
export function isIgnored(stack: readonly GitignoreRules[], workspaceRelPath: string, isDir: boolean): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const verdict = stack[i]!.verdict(workspaceRelPath, isDir);
    if (verdict) return verdict === 'ignore';
  }
  return false;
}

/**
 * The tool's `glob` argument, as ripgrep's `--glob` reads it: without a slash it matches the file
 * name anywhere ("*.ts"), with one the workspace-relative path ("src/**\/*.ts"); braces expand
 * ("*.{ts,tsx}"); a leading "!" excludes instead.
 */
export class GlobFilter {
  private readonly rule: PathRule;

  constructor(readonly glob: string) {
    const rule = compileRule(glob.trim(), true);
    if (!rule) throw new Error(`empty glob "${glob}"`);
    this.rule = rule;
  }

  acceptsFile(workspaceRelPath: string): boolean {
    const hit = ruleMatches(this.rule, workspaceRelPath, false);
    return this.rule.negated ? !hit : hit;
  }

  /** Only an excluding glob can prune a whole folder. */
  prunesDir(workspaceRelPath: string): boolean {
    return this.rule.negated && ruleMatches(this.rule, workspaceRelPath, true);
  }
}
