import { homedir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { realNearest, realOrSelf } from './real-path';

/**
 * The workspace boundary: a write outside the workspace always asks, even in Auto, and so does a
 * write to what configures the agent, the editor or the repository, where a change could grant
 * permissions or run code later (self-escalation). Symbolic links are followed, so a link inside
 * the workspace is no way out of it, nor a way into a protected folder.
 */
interface ProtectedEntry {
  /** The first path segment (compared case-insensitively: macOS and Windows folders are). */
  name: string;
  /** What it configures, for the reason the user and the model read. */
  what: string;
  /** A folder (`.git/`) rather than one file (`.mcp.json`). */
  folder: boolean;
}

const PROTECTED: readonly ProtectedEntry[] = [
  { name: '.git', folder: true, what: "the repository's git internals: hooks and config run programs" },
  { name: '.opendev', folder: true, what: "OpenDev's configuration: settings, permissions, hooks, agents, skills" },
  { name: '.claude', folder: true, what: "Claude's configuration, which OpenDev also reads: settings, hooks, agents, skills" },
  { name: '.vscode', folder: true, what: "VS Code's workspace configuration: settings, tasks, launch configurations" },
  { name: '.mcp.json', folder: false, what: 'the MCP servers of the project: programs to start' },
];

/** The one place under `.opendev/` that configures nothing: the Planner's plan files. */
export const PLANS_FOLDER = '.opendev/plans';

/** What a boundary verdict is about; `secret` comes from a command naming a secret location (command-secrets.ts). */
export type BoundaryKind = 'outside-workspace' | 'protected' | 'secret' | 'unsandboxed';

/** Why a write needs a person: it leaves the workspace (or its target is unknown), or it changes protected configuration. */
export interface BoundaryConcern {
  kind: BoundaryKind;
  /** One clause, for the user and the model. */
  reason: string;
}

export interface BoundaryContext {
  workspaceRoot: string;
  home?: string;
  /** Relative paths cannot be resolved (the command changed folder before this point). */
  cwdUnknown?: boolean;
}

/** Why writing `target` needs the user's consent, or undefined when it stays inside the workspace. */
export function checkBoundary(target: string, ctx: BoundaryContext): BoundaryConcern | undefined {
  const expanded = expandHome(target, ctx);
  const outside = (reason: string): BoundaryConcern => ({ kind: 'outside-workspace', reason });
  if (/[$`*?[]/.test(expanded) || expanded === '') return outside(`writes to \`${target}\`, a path known only when it runs`);
  if (!isAbsolute(expanded) && ctx.cwdUnknown) return outside(`writes to \`${target}\` after changing folder`);
  const segments = workspaceSegments(expanded, ctx.workspaceRoot);
  if (!segments) return outside(`writes outside the workspace (${realNearest(resolve(ctx.workspaceRoot, expanded))})`);
  if (isPlanSegments(segments)) return undefined;
  const first = segments[0]?.toLowerCase();
  const entry = PROTECTED.find((p) => p.name === first && (p.folder || segments.length === 1));
  if (entry) return { kind: 'protected', reason: `changes ${entry.name}${entry.folder ? '/' : ''} (${entry.what})` };
  // A nested repository's hooks run too, when git is used inside it.
  const nestedGit = segments.findIndex((s, i) => i > 0 && s.toLowerCase() === '.git');
  if (nestedGit > 0) return { kind: 'protected', reason: `changes ${segments.slice(0, nestedGit + 1).join('/')}/ (a nested repository's git internals: hooks and config run programs)` };
  return undefined;
}

/**
 * A plan file: a markdown file directly in the workspace's `.opendev/plans/`, by its real path (a
 * link that leads elsewhere is not one). The Planner may write these and nothing else.
 */
export function isPlanFile(target: string, ctx: BoundaryContext): boolean {
  const segments = workspaceSegments(expandHome(target, ctx), ctx.workspaceRoot);
  return segments !== undefined && isPlanSegments(segments);
}

function isPlanSegments(segments: readonly string[]): boolean {
  const [a, b] = PLANS_FOLDER.split('/');
  return segments.length === 3 && segments[0] === a && segments[1] === b && /^[^/\\]+\.md$/i.test(segments[2]!) && !segments[2]!.startsWith('.');
}

function expandHome(target: string, ctx: BoundaryContext): string {
  return expandHomeVariable(target, ctx.home ?? homedir());
}

/** A leading `~`, `$HOME` or `${HOME}` of a shell word, as the home folder. */
export function expandHomeVariable(word: string, home: string): string {
  return word.replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/, home);
}

/** The real path's segments relative to the workspace's real path; undefined outside it. */
function workspaceSegments(path: string, workspaceRoot: string): string[] | undefined {
  const root = realOrSelf(workspaceRoot);
  const rel = relative(root, realNearest(resolve(workspaceRoot, path)));
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel === '' ? [] : rel.split(sep);
}
