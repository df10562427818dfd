import type { Dirent } from 'node:fs';
import { readdir, readFile, readlink, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import * as z from 'zod';
import { SecretLocations } from '../files/secret-locations';
import { sectionText } from '../template-text';
import { ToolError, type Tool } from './tool';
import { displayPath, linkOutside, resolveInWorkspace } from '../files/workspace-path';

export const MAX_LIST_RESULTS = 500;
/** Never listed (paper): dependency, cache and VCS folders and macOS metadata. */
export const DEFAULT_IGNORES: ReadonlySet<string> = new Set(['node_modules', '.git', '__pycache__', '.venv', '.DS_Store']);
/** Past this many entries the omitted count is given as "more than". */
const MAX_COUNTED = 100_000;

const schema = z.lazy(() => z.object({
  path: z.string().optional().describe('Folder (default: the workspace root).'),
  pattern: z.string().min(1).optional().describe('Glob from path, e.g. **/*.ts; without / it matches names at any depth.'),
  max_results: z.number().int().min(1).optional().describe(`Default and max ${MAX_LIST_RESULTS}.`),
}));

interface Entry {
  /** Relative to the listing root, with "/" separators. */
  rel: string;
  name: string;
  dir: boolean;
  depth: number;
  /** A symbolic link: where it points (as written in the link), and whether that leaves the workspace. */
  link?: { target: string; outside: boolean };
  /** A secret location (a folder under a workspace that holds one, such as a home folder): shown, never entered. */
  secret?: boolean;
}

/** A folder tree (or the paths matching a glob), without ignored files, capped at 500 entries. */
export const listFilesTool: Tool<typeof schema> = {
  name: 'list_files',
  category: 'file',
  readOnly: true,
  schema,
  async run(args, ctx) {
    const absolute = resolveInWorkspace(ctx.workspaceRoot, args.path ?? '.');
    const shown = displayPath(ctx.workspaceRoot, absolute);
    const info = await stat(absolute).catch(() => undefined);
    if (!info) throw new ToolError('not_found', `${shown} does not exist. List its parent folder to see what is there.`);
    if (!info.isDirectory()) throw new ToolError('other', `${shown} is a file, not a folder. Read it with read_file.`);
    const cap = Math.min(args.max_results ?? MAX_LIST_RESULTS, MAX_LIST_RESULTS);
    const ignore = await GitIgnore.forFolder(ctx.workspaceRoot, absolute);
    const prefix = shown === '.' ? '' : `${shown.split(sep).join('/')}/`;
    const walk = (visit: (entry: Entry) => boolean) => walkTree(ctx.workspaceRoot, absolute, prefix, ignore, visit);

    if (args.pattern) {
      const matcher = globMatcher(args.pattern);
      const matches: Entry[] = [];
      let total = 0;
      await walk((entry) => {
        if (!matcher(entry.rel, entry.name)) return true;
        total++;
        if (matches.length < cap) matches.push(entry);
        return total < MAX_COUNTED;
      });
      matches.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
      const lines = matches.map((e) => entryLine(e, `${prefix}${e.rel}`));
      const omitted = omittedNote(total, matches.length, 'matches');
      const head = total === 0 ? `No paths under ${shown} match ${args.pattern}.` : `${total} path${total === 1 ? '' : 's'} under ${shown} match${total === 1 ? 'es' : ''} ${args.pattern}:`;
      return {
        ok: true,
        output: [head, ...lines, omitted].filter(Boolean).join('\n'),
        summary: `✓ ${total} match${total === 1 ? '' : 'es'} for ${args.pattern} in ${shown}${omitted ? ` (${matches.length} shown)` : ''}`,
      };
    }

    const shownEntries: Entry[] = [];
    let total = 0;
    await walk((entry) => {
      total++;
      if (shownEntries.length < cap) shownEntries.push(entry);
      return total < MAX_COUNTED;
    });
    const omitted = omittedNote(total, shownEntries.length, 'entries');
    const tree = renderTree(shownEntries);
    return {
      ok: true,
      output: [`${shown === '.' ? 'Workspace root' : `${shown}/`} (${total === 0 ? 'empty' : `${total} entr${total === 1 ? 'y' : 'ies'}`}):`, tree, omitted].filter(Boolean).join('\n'),
      summary: `✓ Listed ${shown} (${total} entr${total === 1 ? 'y' : 'ies'}${omitted ? `, ${shownEntries.length} shown` : ''})`,
    };
  },
};

function omittedNote(total: number, shown: number, what: string): string {
  if (total <= shown) return '';
  const more = total >= MAX_COUNTED ? `more than ${(MAX_COUNTED - shown).toLocaleString('en-US')}` : (total - shown).toLocaleString('en-US');
  return `… ${more} more ${what} omitted (cap ${shown}). Narrow it with path or pattern.`;
}

/**
 * Breadth first, so a capped listing still shows every top-level entry; folders before files,
 * each alphabetically. Ignored entries are skipped and ignored folders not entered; symbolic
 * links are listed as links (with their target) but never followed; secret folders are shown but
 * not entered. `visit` returns false to stop.
 */
async function walkTree(workspaceRoot: string, root: string, prefix: string, ignore: GitIgnore, visit: (entry: Entry) => boolean): Promise<void> {
  const secrets = new SecretLocations({ workspace: workspaceRoot });
  let level: Array<{ path: string; rel: string; ignore: GitIgnore }> = [{ path: root, rel: '', ignore }];
  for (let depth = 0; level.length > 0; depth++) {
    const next: typeof level = [];
    for (const folder of level) {
      const dirents = await readdir(folder.path, { withFileTypes: true }).catch(() => [] as Dirent[]);
      const own = dirents.some((d) => d.name === '.gitignore' && d.isFile()) ? await readFile(join(folder.path, '.gitignore'), 'utf8').catch(() => '') : '';
      const rules = folder.rel === '' ? folder.ignore.withText(own, prefix.replace(/\/$/, '')) : folder.ignore.withText(own, `${prefix}${folder.rel}`);
      const entries = dirents
        .filter((d) => !DEFAULT_IGNORES.has(d.name))
        .map((d) => ({ d, rel: folder.rel ? `${folder.rel}/${d.name}` : d.name, dir: d.isDirectory() }))
        .filter((e) => !rules.ignores(`${prefix}${e.rel}`, e.dir))
        .sort((a, b) => (a.dir !== b.dir ? (a.dir ? -1 : 1) : a.d.name < b.d.name ? -1 : a.d.name > b.d.name ? 1 : 0));
      for (const e of entries) {
        const path = join(folder.path, e.d.name);
        const entry: Entry = { rel: e.rel, name: e.d.name, dir: e.dir, depth };
        if (e.d.isSymbolicLink()) {
          const target = await readlink(path).catch(() => '?');
          entry.link = { target, outside: linkOutside(workspaceRoot, path) !== undefined };
        } else if (e.dir && secrets.locateWritten(path)) entry.secret = true;
        if (!visit(entry)) return;
        if (e.dir && !entry.secret) next.push({ path, rel: e.rel, ignore: rules });
      }
    }
    level = next;
  }
}

/** Indented two spaces per level under each folder; folders end with "/". */
function renderTree(entries: Entry[]): string {
  const children = new Map<string, Entry[]>();
  for (const e of entries) {
    const parent = e.rel.includes('/') ? e.rel.slice(0, e.rel.lastIndexOf('/')) : '';
    const list = children.get(parent) ?? [];
    list.push(e);
    children.set(parent, list);
  }
  const out: string[] = [];
  const render = (parent: string) => {
    for (const e of children.get(parent) ?? []) {
      out.push(`${'  '.repeat(e.depth)}${entryLine(e, e.name)}`);
      if (e.dir) render(e.rel);
    }
  };
  render('');
  return out.join('\n');
}

/** One entry as listed: folders end with "/", links show their target, secret folders say so. */
function entryLine(e: Entry, name: string): string {
  if (e.link?.outside) return sectionText(TEXTS, 'listed_link', { NAME: name, TARGET: e.link.target });
  if (e.link) return `${name} -> ${e.link.target}`;
  if (e.secret) return sectionText(TEXTS, 'listed_secret', { NAME: name });
  return `${name}${e.dir ? '/' : ''}`;
}

const TEXTS = 'safety/workspace-path.md';

// ── glob ────────────────────────────────────────────────────────────────────────────────────

/** `*`, `?`, `[abc]`, `[!a-z]`, `{a,b}`, `**` (any number of folders), `\` escapes. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${globBody(glob)}$`);
}

function globBody(glob: string): string {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    const atSegmentStart = i === 0 || glob[i - 1] === '/';
    if (c === '*' && glob[i + 1] === '*' && atSegmentStart && (glob[i + 2] === '/' || i + 2 === glob.length)) {
      if (glob[i + 2] === '/') {
        re += '(?:[^/]+/)*';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (c === '*') {
      while (glob[i + 1] === '*') i++;
      re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) re += '\\[';
      else {
        let body = glob.slice(i + 1, close);
        const negated = body.startsWith('!') || body.startsWith('^');
        if (negated) body = body.slice(1);
        re += `[${negated ? '^/' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
        i = close;
      }
    } else if (c === '{') {
      const close = matchingBrace(glob, i);
      if (close === -1) re += '\\{';
      else {
        re += `(?:${splitTopLevel(glob.slice(i + 1, close)).map(globBody).join('|')})`;
        i = close;
      }
    } else if (c === '\\' && i + 1 < glob.length) re += escapeRegExp(glob[++i]!);
    else re += escapeRegExp(c);
  }
  return re;
}

function matchingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let i = open; i < glob.length; i++) {
    if (glob[i] === '\\') i++;
    else if (glob[i] === '{') depth++;
    else if (glob[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\') {
      current += c + (body[++i] ?? '');
      continue;
    }
    if (c === '{') depth++;
    if (c === '}') depth--;
    if (c === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  return parts;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** A glob with a "/" matches the relative path; one without matches a name at any depth. */
export function globMatcher(pattern: string): (rel: string, name: string) => boolean {
  const cleaned = pattern.replace(/^\.\//, '').replace(/\/$/, '');
  const regex = globToRegExp(cleaned);
  return cleaned.includes('/') ? (rel) => regex.test(rel) : (_rel, name) => regex.test(name);
}

// ── .gitignore ──────────────────────────────────────────────────────────────────────────────

interface IgnoreRule {
  /** Folder of the .gitignore, relative to the workspace root ('' = the root). */
  base: string;
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

/**
 * The common .gitignore syntax: comments, `!` negation, a trailing `/` for folders only, a
 * leading or inner `/` anchoring to the .gitignore's folder, `*`, `?`, `[…]`, `**`. Nested
 * .gitignore files apply below their folder, after (so over) their parents'; the last matching
 * rule wins. Also reads .git/info/exclude. Paths are relative to the workspace root.
 */
export class GitIgnore {
  private constructor(private readonly rules: readonly IgnoreRule[]) {}

  static empty(): GitIgnore {
    return new GitIgnore([]);
  }

  /** The rules in force in `folder`: .git/info/exclude and every .gitignore from the workspace root down to it. */
  static async forFolder(workspaceRoot: string, folder: string): Promise<GitIgnore> {
    const segments = relative(workspaceRoot, folder).split(sep).filter(Boolean);
    let ignore = GitIgnore.empty().withText(await readFile(join(workspaceRoot, '.git', 'info', 'exclude'), 'utf8').catch(() => ''), '');
    for (let depth = 0; depth < segments.length; depth++) {
      const base = segments.slice(0, depth).join('/');
      ignore = ignore.withText(await readFile(join(workspaceRoot, ...segments.slice(0, depth), '.gitignore'), 'utf8').catch(() => ''), base);
    }
    return ignore;
  }

  /** These rules, then the rules of `text` (a .gitignore in the folder `base`). */
  withText(text: string, base: string): GitIgnore {
    const added = parseRules(text, base);
    return added.length ? new GitIgnore([...this.rules, ...added]) : this;
  }

  /** Whether a path (relative to the workspace root, "/"-separated) is ignored. */
  ignores(path: string, dir: boolean): boolean {
    let ignored = false;
    for (const rule of this.rules) {
      if (rule.dirOnly && !dir) continue;
      let rel: string;
      if (rule.base === '') rel = path;
      else if (path.startsWith(`${rule.base}/`)) rel = path.slice(rule.base.length + 1);
      else continue;
      if (rule.regex.test(rel)) ignored = !rule.negate;
    }
    return ignored;
  }
}

export function parseRules(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.replace(/(?<!\\)[ \t]+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
    let dirOnly = false;
    if (line.endsWith('/')) {
      dirOnly = true;
      line = line.replace(/\/+$/, '');
    }
    if (line === '') continue;
    const anchored = line.includes('/');
    line = line.replace(/^\//, '');
    rules.push({ base, regex: globToRegExp(anchored ? line : `**/${line}`), negate, dirOnly });
  }
  return rules;
}
