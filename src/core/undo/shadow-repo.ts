import { existsSync } from 'node:fs';
import { copyFile, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../config/private-files';
import { SHADOW_ATTRIBUTES } from './shadow-excludes';
import { runShadowGit, ShadowGitError, splitNul, type GitRunOptions, type ShadowGitTarget } from './shadow-git';

/** How a path differs between two snapshots. */
export type PathChange = 'added' | 'modified' | 'deleted';

export interface ChangedPath {
  path: string;
  change: PathChange;
}

/** Settings the repository applies to itself; the user's config is never read (see shadowGitEnv). */
const SHADOW_CONFIG: ReadonlyArray<[string, string]> = [
  ['core.autocrlf', 'false'],
  ['core.safecrlf', 'false'],
  ['core.untrackedCache', 'true'],
  ['core.fsmonitor', 'false'],
  ['core.quotePath', 'false'],
  ['index.version', '4'],
  // We run gc ourselves, in the background, at most once a day (GcSchedule).
  ['gc.auto', '0'],
];

/**
 * OpenDev's own git repository for one project (`OPENDEV_HOME/snapshot/<encoded project>/`) with
 * the workspace as its work tree. It has its own object store and index; the project's `.git` is
 * never opened, let alone written. Snapshots are trees (no commits, no refs): unreachable objects
 * live until the weekly prune (`gc --prune=7.days`).
 */
export class ShadowRepo {
  readonly target: ShadowGitTarget;

  constructor(
    readonly gitDir: string,
    readonly workspaceRoot: string,
    sessionId: string,
    private readonly timeoutMs = 60_000,
  ) {
    this.target = { gitDir, workTree: workspaceRoot, indexFile: join(gitDir, 'indexes', `${sessionId}.index`) };
  }

  /** The index the last session left: a new session copies it, so its first snapshot is incremental. */
  private get sharedIndex(): string {
    return join(this.gitDir, 'index');
  }

  /** Creates the repository when missing (idempotent); the session's index starts from the shared one. */
  async ensure(): Promise<void> {
    if (!existsSync(join(this.gitDir, 'HEAD'))) await this.init();
    if (!existsSync(this.target.indexFile) && existsSync(this.sharedIndex)) {
      await copyFile(this.sharedIndex, this.target.indexFile).catch(() => undefined); // cold start instead
    }
  }

  private async init(): Promise<void> {
    await mkdirPrivate(join(this.gitDir, 'indexes'));
    await this.git(['init', '--quiet', '--template=']);
    await this.git(['config', '--unset', 'core.worktree']).catch(() => undefined);
    for (const [key, value] of SHADOW_CONFIG) await this.git(['config', key, value]);
    await mkdirPrivate(join(this.gitDir, 'info'));
    await writeFile(join(this.gitDir, 'info', 'attributes'), SHADOW_ATTRIBUTES, { mode: PRIVATE_FILE_MODE });
    // The empty blob stands in for nested repositories' placeholders (see SnapshotTaker).
    await this.git(['hash-object', '-w', '--stdin'], { input: '' });
  }

  /** Deletes the repository and makes a new one (it was damaged). Earlier snapshots are gone. */
  async recreate(): Promise<void> {
    await rm(this.gitDir, { recursive: true, force: true });
    await this.ensure();
  }

  /** Forgets the session's index (stale or damaged): the next snapshot rebuilds it from the files. */
  async dropIndex(): Promise<void> {
    await rm(this.target.indexFile, { force: true });
    await rm(`${this.target.indexFile}.lock`, { force: true });
  }

  /** Hands the session's index on to the next session (atomic), or just drops its lock. */
  async persistIndex(): Promise<void> {
    await rm(`${this.target.indexFile}.lock`, { force: true });
    if (existsSync(this.target.indexFile)) await rename(this.target.indexFile, this.sharedIndex).catch(() => undefined);
  }

  async readInfoFile(name: 'exclude'): Promise<string> {
    return readFile(join(this.gitDir, 'info', name), 'utf8').catch(() => '');
  }

  async writeInfoFile(name: 'exclude', text: string): Promise<void> {
    await mkdirPrivate(join(this.gitDir, 'info'));
    await writeFile(join(this.gitDir, 'info', name), text, { mode: PRIVATE_FILE_MODE });
  }

  /** Whether a snapshot's tree is still in the object store (the weekly prune drops old ones). */
  async hasTree(tree: string): Promise<boolean> {
    const run = await runShadowGit(this.target, ['cat-file', '-e', `${tree}^{tree}`], { timeoutMs: this.timeoutMs });
    return run.code === 0;
  }

  /** The paths that differ between two snapshot trees. */
  async diff(from: string, to: string): Promise<ChangedPath[]> {
    if (from === to) return [];
    const out = splitNul(await this.git(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to]));
    const changes: ChangedPath[] = [];
    for (let i = 0; i + 1 < out.length; i += 2) {
      const status = out[i]!;
      changes.push({ path: out[i + 1]!, change: status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'modified' });
    }
    return changes;
  }

  /** Writes `paths` as they are in `tree` into the workspace (and the shadow index), byte for byte. */
  async checkout(tree: string, paths: readonly string[]): Promise<void> {
    if (paths.length === 0) return;
    await this.git(['checkout', tree, '--pathspec-from-file=-', '--pathspec-file-nul'], { input: paths.join('\0') });
  }

  /** A git command that must succeed; its stdout. */
  async git(args: readonly string[], options: GitRunOptions = {}): Promise<Buffer> {
    const run = await runShadowGit(this.target, args, { timeoutMs: this.timeoutMs, ...options });
    if (run.code !== 0) throw new ShadowGitError(args, run);
    return run.stdout;
  }
}
