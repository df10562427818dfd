// Whether a workspace's configuration may act with the user's authority: only when the user trusted
// exactly what its configuration files say now. Read afresh for every new agent (a few small files),
// so an edit made since — by a pull, or by the agent — is caught before it takes effect.
import { changedSources, projectFingerprint, type ProjectFingerprint } from './project-files';
import { forgetWorkspace, readTrust, rememberWorkspace, workspaceRecord } from './trust-store';

export interface ProjectTrust {
  trusted: boolean;
  /** Never trusted, or trusted before with other content (then `changed` names the sources). */
  state: 'trusted' | 'untrusted' | 'changed';
  changed: string[];
  fingerprint: ProjectFingerprint;
  /** The trust file could not be read: nothing counts as trusted. */
  problem?: string;
}

export interface ProjectTrustWhere {
  home: string;
  workspaceRoot: string;
  /** Sources only the host knows (VS Code's workspace `opendev.*` values), by name. */
  extra?: Record<string, string | undefined>;
}

export function readProjectTrust(where: ProjectTrustWhere): ProjectTrust {
  const fingerprint = projectFingerprint(where.workspaceRoot, where.extra);
  const read = readTrust(where.home);
  if (read.status === 'broken') return { trusted: false, state: 'untrusted', changed: [], fingerprint, problem: read.problem };
  const record = workspaceRecord(read.data, where.workspaceRoot);
  if (!record) return { trusted: false, state: 'untrusted', changed: [], fingerprint };
  const changed = changedSources(record.sources, fingerprint);
  return changed.length === 0 ? { trusted: true, state: 'trusted', changed, fingerprint } : { trusted: false, state: 'changed', changed, fingerprint };
}

/** Trusts the configuration as `trust` saw it (not as it may be by now: the user said yes to what was shown). */
export function trustProject(where: ProjectTrustWhere, seen: ProjectFingerprint): Promise<string | undefined> {
  return rememberWorkspace(where.home, where.workspaceRoot, seen);
}

export function untrustProject(where: Pick<ProjectTrustWhere, 'home' | 'workspaceRoot'>): Promise<string | undefined> {
  return forgetWorkspace(where.home, where.workspaceRoot);
}
