import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../config/private-files';
import { syncFolder } from '../files/sync-folder';
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
 * live until the weekly prune (`gc --prune=7.days`). A store found damaged is set aside beside it
 * (`<store>.damaged-<time>`), not deleted: restores still read the snapshots that survive in it.
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
    if (!existsSync(join(this.gitDir, 'HEAD'))) await this.create();
    if (!existsSync(this.target.indexFile) && existsSync(this.sharedIndex)) {
      await copyFile(this.sharedIndex, this.target.indexFile).catch(() => undefined); // cold start instead
    }
  }

  /**
   * Builds the repository in a folder of its own and renames it into place, so a process killed
   * half-way never leaves a store without its settings (a folder there without HEAD is set aside).
   */
  private async create(): Promise<void> {
    await mkdirPrivate(dirname(this.gitDir));
    if (existsSync(this.gitDir)) await this.setAside();
    const building = `${this.gitDir}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await this.init({ ...this.target, gitDir: building, indexFile: join(building, 'indexes', basename(this.target.indexFile)) });
      await rename(building, this.gitDir);
      await syncFolder(dirname(this.gitDir));
    } catch (err) {
      await rm(building, { recursive: true, force: true });
      // Another session made it first.
      if (!existsSync(join(this.gitDir, 'HEAD'))) throw err;
    }
  }

  private async init(target: ShadowGitTarget): Promise<void> {
    const git = (args: string[], input?: string) => this.git(args, { input }, target);
    await mkdirPrivate(join(target.gitDir, 'indexes'));
    await git(['init', '--quiet', '--template=']);
    await git(['config', '--unset', 'core.worktree']).catch(() => undefined);
    for (const [key, value] of SHADOW_CONFIG) await git(['config', key, value]);
    await mkdirPrivate(join(target.gitDir, 'info'));
    await writeFile(join(target.gitDir, 'info', 'attributes'), SHADOW_ATTRIBUTES, { mode: PRIVATE_FILE_MODE });
    // The empty blob stands in for nested repositories' placeholders (see SnapshotTaker).
    await git(['hash-object', '-w', '--stdin'], '');
  }

  /** Whether git still takes the store for a repository (HEAD, objects, refs in place). */
  async isRepository(): Promise<boolean> {
    return (await runShadowGit(this.target, ['rev-parse', '--git-dir'], { timeoutMs: this.timeoutMs })).code === 0;
  }

  /**
   * Sets the damaged store aside and makes a new one. The snapshots that survive in the old one stay
   * readable for restores (never for new snapshots, which must not share a damaged object). Returns
   * where it went.
   */
  async replaceDamaged(): Promise<string> {
    const aside = await this.setAside();
    await this.ensure();
    return aside;
  }

  private async setAside(): Promise<string> {
    const aside = `${this.gitDir}.damaged-${Date.now()}`;
    await rename(this.gitDir, aside);
    return aside;
  }

  /** The object stores of damaged stores set aside (restores read them; gc drops them after a week). */
  async setAsideStores(): Promise<string[]> {
    const prefix = `${basename(this.gitDir)}.damaged-`;
    const names = await readdir(dirname(this.gitDir)).catch(() => [] as string[]);
    return names.filter((n) => n.startsWith(prefix)).map((n) => join(dirname(this.gitDir), n));
  }

  private async alternates(): Promise<string[]> {
    return (await this.setAsideStores()).map((store) => join(store, 'objects'));
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
    const run = await runShadowGit(this.target, ['cat-file', '-e', `${tree}^{tree}`], { timeoutMs: this.timeoutMs, alternates: await this.alternates() });
    return run.code === 0;
  }

  /** The paths that differ between two snapshot trees. */
  async diff(from: string, to: string): Promise<ChangedPath[]> {
    if (from === to) return [];
    const out = splitNul(await this.git(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to], { alternates: await this.alternates() }));
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
    const alternates = await this.alternates();
    const input = paths.join('\0');
    await this.git(['checkout', tree, '--pathspec-from-file=-', '--pathspec-file-nul'], { input, alternates });
    if (alternates.length === 0) return;
    // Restored from a store set aside: the index now names those blobs, so they join this store
    // (re-added: update-index alone skips a file whose times match its entry).
    await this.git(['update-index', '--force-remove', '-z', '--stdin'], { input });
    await this.git(['update-index', '--add', '-z', '--stdin'], { input });
  }

  /** A git command that must succeed; its stdout. */
  async git(args: readonly string[], options: GitRunOptions = {}, target: ShadowGitTarget = this.target): Promise<Buffer> {
    const run = await runShadowGit(target, args, { timeoutMs: this.timeoutMs, ...options });
    if (run.code !== 0) throw new ShadowGitError(args, run);
    return run.stdout;
  }
}
