import { existsSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { buildExcludeFile } from './shadow-excludes';
import { splitNul, type GitRunOptions } from './shadow-git';
import type { ShadowRepo } from './shadow-repo';

/** A file left out of the snapshot because it is over the size cap. */
export interface SkippedFile {
  path: string;
  bytes: number;
  mtimeMs: number;
}

export interface Snapshot {
  /** The tree of the workspace as the shadow repo sees it (`git write-tree`). */
  tree: string;
  /** Every file currently over the size cap (not in `tree`). */
  oversized: SkippedFile[];
  /** Nested repositories found for the first time by this snapshot (their files are now snapshotted). */
  newNestedRepos: string[];
}

export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Stands in for a nested repository in the index for one moment (see seedNestedRepos). */
const NESTED_PLACEHOLDER = '.opendev-nested-repo';
const EMPTY_BLOB = 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391';
/** Past this many new or changed files, one `git add -A` beats naming them to update-index. */
const BULK_UPDATE = 1000;
/** A listing slower than this means stale stat data in the index: refresh it once. */
const SLOW_LISTING_MS = 150;
/** Nested repositories inside nested repositories are found one level per round. */
const MAX_NESTING_ROUNDS = 6;

/**
 * Takes tree snapshots of the workspace into the shadow repo, incrementally: one `ls-files` lists
 * what is new, modified or deleted since the session's index (git's stat cache and untracked cache
 * make that fast on large trees), files over the cap are left out (and excluded until they shrink),
 * the rest goes into the index with one `update-index`, and `write-tree` (cached subtrees) gives
 * the tree. Nested repositories are snapshotted as plain files: their `.git` is skipped like every
 * `.git`, their content is the project's content as far as undo is concerned.
 */
export class SnapshotTaker {
  private readonly oversized = new Map<string, SkippedFile>();
  private readonly seenNested = new Set<string>();

  constructor(
    private readonly repo: ShadowRepo,
    private readonly options: { opendevHome: string; maxFileBytes?: number },
  ) {}

  private get cap(): number {
    return this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  }

  async take(run: GitRunOptions = {}): Promise<Snapshot> {
    await this.repo.ensure();
    await this.recheckOversized();
    await this.syncExcludes();
    const newNestedRepos: string[] = [];
    let listed: string[] = [];
    let listingMs = 0;
    for (let round = 0; round < MAX_NESTING_ROUNDS; round++) {
      const started = Date.now();
      listed = splitNul(await this.repo.git(['ls-files', '-z', '--others', '--modified', '--deleted', '--exclude-standard'], run));
      listingMs = Date.now() - started;
      const nested = listed.filter((p) => p.endsWith('/') && existsSync(join(this.repo.workspaceRoot, p, '.git')));
      if (nested.length === 0) break;
      for (const dir of nested) if (!this.seenNested.has(dir)) newNestedRepos.push(dir.slice(0, -1));
      await this.seedNestedRepos(nested, run);
    }
    const files = [...new Set(listed.filter((p) => !p.endsWith('/')))];
    const tooBig = await this.findOversized(files);
    if (tooBig.length > 0) {
      await this.syncExcludes();
      await this.repo.git(['update-index', '--force-remove', '-z', '--stdin'], { ...run, input: tooBig.join('\0') });
    }
    const update = files.filter((p) => !this.oversized.has(p));
    if (update.length > BULK_UPDATE) {
      // A first snapshot: `add -A` hashes in parallel, about twice as fast as update-index here.
      await this.repo.git(['add', '-A'], run);
    } else if (update.length > 0) {
      try {
        await this.repo.git(['update-index', '--add', '--remove', '--replace', '-z', '--stdin'], { ...run, input: update.join('\0') });
      } catch {
        // A file that became a folder (or the reverse) and other corner cases: let `add -A` sort it out.
        await this.repo.git(['add', '-A'], run);
      }
    }
    const tree = (await this.repo.git(['write-tree'], run)).toString('utf8').trim();
    // ls-files never writes the index, so files whose times changed but content did not (a branch
    // switch, a `touch`) are re-read on every listing until the index learns their new times.
    if (listingMs > SLOW_LISTING_MS) await this.repo.git(['update-index', '-q', '--refresh'], run).catch(() => undefined);
    return { tree, oversized: [...this.oversized.values()], newNestedRepos };
  }

  /**
   * A nested repository shows up as one untracked folder (`sub/`), and `git add` would record it as
   * a gitlink (or fail when it has no commit). A placeholder entry inside it makes git treat it as
   * an ordinary folder; the next listing then shows its files, and the placeholder (missing on
   * disk) leaves the index with the next update.
   */
  private async seedNestedRepos(dirs: readonly string[], run: GitRunOptions): Promise<void> {
    const entries = dirs.map((dir) => `100644 ${EMPTY_BLOB}\t${dir}${NESTED_PLACEHOLDER}`).join('\0');
    await this.repo.git(['update-index', '--add', '-z', '--index-info'], { ...run, input: `${entries}\0` });
    for (const dir of dirs) this.seenNested.add(dir);
  }

  /** Files in `paths` over the cap; they join the oversized set. */
  private async findOversized(paths: readonly string[]): Promise<string[]> {
    const found: string[] = [];
    await Promise.all(
      paths.map(async (path) => {
        const stat = await lstat(join(this.repo.workspaceRoot, path)).catch(() => undefined);
        if (stat?.isFile() && stat.size > this.cap) {
          this.oversized.set(path, { path, bytes: stat.size, mtimeMs: stat.mtimeMs });
          found.push(path);
        }
      }),
    );
    return found;
  }

  /** A skipped file that shrank under the cap (or vanished) is snapshotted again; the others are re-measured. */
  private async recheckOversized(): Promise<void> {
    for (const [path] of this.oversized) {
      const stat = await lstat(join(this.repo.workspaceRoot, path)).catch(() => undefined);
      if (!stat?.isFile() || stat.size <= this.cap) this.oversized.delete(path);
      else this.oversized.set(path, { path, bytes: stat.size, mtimeMs: stat.mtimeMs });
    }
  }

  private async syncExcludes(): Promise<void> {
    const text = buildExcludeFile({ workspaceRoot: this.repo.workspaceRoot, opendevHome: this.options.opendevHome, oversized: this.oversized.keys() });
    if ((await this.repo.readInfoFile('exclude')) !== text) await this.repo.writeInfoFile('exclude', text);
  }
}
