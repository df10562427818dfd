import type { Dirent } from 'node:fs';
import { readdir, readFile, readlink, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import * as z from 'zod';
import { GitignoreStack, pathGlob } from '../files/path-globs';
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
    const ignore = await gitignoreFor(ctx.workspaceRoot, absolute);
    const prefix = shown === '.' ? '' : `${shown.split(sep).join('/')}/`;
    const walk = (visit: (entry: Entry) => boolean) => walkTree(ctx.workspaceRoot, absolute, prefix, ignore, visit);

    if (args.pattern) {
      const matcher = pathGlob(args.pattern);
      const matches: Entry[] = [];
      let total = 0;
      await walk((entry) => {
        if (!matcher(entry.rel)) return true;
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
async function walkTree(workspaceRoot: string, root: string, prefix: string, ignore: GitignoreStack, visit: (entry: Entry) => boolean): Promise<void> {
  const secrets = new SecretLocations({ workspace: workspaceRoot });
  let level: Array<{ path: string; rel: string; ignore: GitignoreStack }> = [{ path: root, rel: '', ignore }];
  for (let depth = 0; level.length > 0; depth++) {
    const next: typeof level = [];
    for (const folder of level) {
      const dirents = await readdir(folder.path, { withFileTypes: true }).catch(() => [] as Dirent[]);
      const own = dirents.some((d) => d.name === '.gitignore' && d.isFile()) ? await readFile(join(folder.path, '.gitignore'), 'utf8').catch(() => '') : '';
      const rules = folder.ignore.with(own, folder.rel === '' ? prefix.replace(/\/$/, '') : `${prefix}${folder.rel}`);
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

/** The .gitignore rules in force in `folder`: .git/info/exclude and every .gitignore from the workspace root down to it. */
async function gitignoreFor(workspaceRoot: string, folder: string): Promise<GitignoreStack> {
  const segments = relative(workspaceRoot, folder).split(sep).filter(Boolean);
  let ignore = GitignoreStack.empty.with(await readFile(join(workspaceRoot, '.git', 'info', 'exclude'), 'utf8').catch(() => ''), '');
  for (let depth = 0; depth < segments.length; depth++) {
    ignore = ignore.with(await readFile(join(workspaceRoot, ...segments.slice(0, depth), '.gitignore'), 'utf8').catch(() => ''), segments.slice(0, depth).join('/'));
  }
  return ignore;
}
