// The files through which a repository configures OpenDev (and Claude Code, whose files we honour).
// Trust is given to their exact content: a record holds one hash per file, so an edit to any of them
// — by a `git pull`, a teammate, or the agent itself — makes the folder untrusted again and the next
// question names the file that changed.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

export const PROJECT_CONFIG_FILES = [
  '.opendev/settings.json',
  '.opendev/permissions.json',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.mcp.json',
] as const;

/** The folders those files are in (`.opendev`, `.claude`). */
export const PROJECT_CONFIG_FOLDERS = [...new Set(PROJECT_CONFIG_FILES.map((file) => posix.dirname(file)).filter((dir) => dir !== '.'))];

/** The files that define a project's MCP servers. */
export const MCP_CONFIG_SOURCES = ['.mcp.json', '.opendev/settings.json'] as const;

/** Whether `sources` still have the content they have now: a trust given to the folder holds only for that content. */
export function unchangedSince(workspaceRoot: string, sources: readonly string[]): () => boolean {
  const at = projectFingerprint(workspaceRoot);
  return () => {
    const now = projectFingerprint(workspaceRoot);
    return sources.every((s) => now[s] === at[s]);
  };
}

/** What is absent has this hash, so a file that appears later changes the fingerprint too. */
export const ABSENT = 'absent';

/** Per configuration source (a file's workspace-relative path, or a host's own name such as `VS Code workspace settings`), sha256 of its content. */
export type ProjectFingerprint = Record<string, string>;

/**
 * The fingerprint of a workspace's configuration. `extra` adds sources a host knows of (VS Code: the
 * workspace's `opendev.*` values as JSON); undefined content counts as absent.
 */
export function projectFingerprint(workspaceRoot: string, extra: Record<string, string | undefined> = {}): ProjectFingerprint {
  const out: ProjectFingerprint = {};
  for (const file of PROJECT_CONFIG_FILES) out[file] = hashOf(readOrUndefined(join(workspaceRoot, file)));
  for (const [name, content] of Object.entries(extra)) out[name] = hashOf(content);
  return out;
}

/** The sources whose content differs between two fingerprints (a source only one of them has counts). */
export function changedSources(trusted: ProjectFingerprint, now: ProjectFingerprint): string[] {
  const names = new Set([...Object.keys(trusted), ...Object.keys(now)]);
  return [...names].filter((name) => (trusted[name] ?? ABSENT) !== (now[name] ?? ABSENT)).sort();
}

function hashOf(content: string | Buffer | undefined): string {
  return content === undefined ? ABSENT : createHash('sha256').update(content).digest('hex');
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}
