import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expandHome } from '../files/secret-locations';
import type { SandboxSettings } from '../config/sandbox-settings';

/**
 * What a sandboxed command may do, as paths and hosts: the trust boundary's rules (workspace,
 * protected configuration, secret locations) turned into a policy the OS enforces, so that no
 * spelling of a command gets past them.
 */
export interface SandboxPolicy {
  /** Folders commands may write: the workspace, the session's temp folder, the tool caches that exist, the user's own additions. */
  writable: string[];
  /** Inside those, what stays read-only: git hooks and config, the agent's and the editor's configuration. */
  readOnly: string[];
  /** Nothing under these can be read: the secret locations. */
  unreadable: string[];
  /** Readable again although inside an unreadable folder: the session's own scratch and skill folders. */
  readable: string[];
  /** Hosts commands may connect to. */
  network: string[];
}

export interface PolicyInput {
  settings: SandboxSettings;
  workspaceRoot: string;
  home: string;
  /** The session's private temp folder (TMPDIR of every command). */
  tempDir: string;
  /** The secret locations (files/secret-locations.ts), absolute. */
  secretRoots: readonly string[];
  /** The session's folders the model is pointed at inside the OpenDev home. */
  readableDirs?: readonly string[];
  /** Hosts allowed for this session only (the "allow for this session" answer). */
  sessionHosts?: readonly string[];
  /** The host of the workspace's `origin` remote, when the folder is trusted. */
  gitHost?: string;
}

/** What builds write outside the project: package and build caches under the home folder (only those that exist are opened). */
export const TOOL_CACHES: readonly string[] = [
  '.npm',
  '.cache/node-gyp',
  '.cache/node/corepack',
  '.cache/yarn',
  '.yarn/berry/cache',
  '.cache/pnpm',
  '.local/share/pnpm',
  '.bun/install/cache',
  '.cache/deno',
  '.cache/pip',
  '.cache/pypoetry',
  '.cache/uv',
  '.cache/go-build',
  'go/pkg/mod',
  '.cargo/registry',
  '.cargo/git',
  '.gradle/caches',
  '.gradle/wrapper',
  '.m2/repository',
  '.nuget/packages',
  '.cache/typescript',
];

/** Inside the workspace, what a command must not change: it would run programs or grant permissions later, outside the sandbox. */
export const WORKSPACE_READ_ONLY: readonly string[] = ['.git/hooks', '.git/config', '.opendev', '.claude', '.vscode', '.mcp.json'];

export function sandboxPolicy(input: PolicyInput): SandboxPolicy {
  const { home } = input;
  const caches = TOOL_CACHES.map((p) => join(home, p)).filter((p) => existsSync(p));
  const extra = input.settings.writeAllow.map((p) => expandHome(p, home));
  return {
    writable: unique([input.workspaceRoot, input.tempDir, ...caches, ...extra]),
    readOnly: readOnlyIn(input.workspaceRoot),
    unreadable: unique([...input.secretRoots]),
    readable: unique([...(input.readableDirs ?? [])]),
    network: unique([...input.settings.networkAllow, ...(input.sessionHosts ?? []), ...(input.gitHost ? [input.gitHost] : [])]),
  };
}

/**
 * The protected paths that exist. One that does not would appear as an empty placeholder inside the
 * sandbox (bubblewrap binds over a path), and `git add -A` fails on such a `.claude`; creating one
 * later asks again anyway (the trust fingerprint). Without a repository, `.git` as a whole: a
 * command must not create the hooks a later commit of the user's would run.
 */
function readOnlyIn(workspaceRoot: string): string[] {
  const git = join(workspaceRoot, '.git');
  // A repository without a hooks folder (some clones) gets an empty one, held read-only like any:
  // otherwise a command could create it and plant a hook that the user's next commit runs.
  if (statSync(git, { throwIfNoEntry: false })?.isDirectory() && !existsSync(join(git, 'hooks'))) mkdirSync(join(git, 'hooks'), { recursive: true });
  if (!existsSync(git)) return [git, ...WORKSPACE_READ_ONLY.filter((p) => !p.startsWith('.git/') && existsSync(join(workspaceRoot, p))).map((p) => join(workspaceRoot, p))];
  return WORKSPACE_READ_ONLY.map((p) => join(workspaceRoot, p)).filter((p) => existsSync(p));
}

/** The host of `remote "origin"` in the workspace's `.git/config` (https, ssh or scp-like URL); undefined when there is none. */
export function originHost(workspaceRoot: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(workspaceRoot, '.git', 'config'), 'utf8');
  } catch {
    return undefined;
  }
  const section = /\[remote\s+"origin"\]([^[]*)/.exec(text)?.[1];
  const url = section && /^\s*url\s*=\s*(\S+)/m.exec(section)?.[1];
  if (!url) return undefined;
  const host = /^[a-z+]+:\/\/(?:[^@/]+@)?([^/:]+)/i.exec(url)?.[1] ?? /^(?:[^@/]+@)?([^/:]+):/.exec(url)?.[1];
  return host && /^[a-z0-9.-]+$/i.test(host) && host.includes('.') ? host.toLowerCase() : undefined;
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}
