import { GIT_NOT_FOUND } from '../git/run-git';
import { SerialQueue } from '../serial-queue';
import { ShadowGitError } from './shadow-git';
import type { ShadowRepo } from './shadow-repo';
import type { Snapshot, SnapshotTaker } from './snapshot-taker';

export const TIMED_OUT = Symbol('timed out');
/** A snapshot; TIMED_OUT when the caller stopped waiting; undefined when it failed (already reported). */
export type SnapshotResult = Snapshot | typeof TIMED_OUT | undefined;

/**
 * Takes snapshots one at a time (they share the session's index) and never lets one hurt a turn:
 * a caller waits at most its budget (the snapshot, if it has not started, is then skipped; if it
 * has, it finishes unused and warms the index), and a failure becomes a warning. A stale or
 * damaged index (a lock left by a killed process) is rebuilt quietly; a repository git no longer
 * recognises is set aside and replaced, with a warning (its snapshots stay readable for undo).
 * Nothing else is reset: a full disk, or a failure the rebuilt index does not cure, is reported.
 */
export class SnapshotScheduler {
  private readonly queue = new SerialQueue();
  private disabled: string | undefined;

  constructor(
    private readonly repo: ShadowRepo,
    private readonly taker: SnapshotTaker,
    private readonly signal: AbortSignal,
    private readonly warn: (message: string) => void,
  ) {}

  /** Runs `job` when the snapshots queued before it are done (restores must not race a snapshot). */
  exclusive<T>(job: () => Promise<T>): Promise<T> {
    return this.queue.run(job);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** Whether snapshots are off for the session (git missing, or the folder too big to snapshot). */
  get off(): boolean {
    return this.disabled !== undefined;
  }

  async snapshot(budgetMs: number): Promise<SnapshotResult> {
    if (this.disabled) return undefined;
    let abandoned = false;
    const job = this.queue.run(() => (abandoned || this.signal.aborted ? Promise.resolve(undefined) : this.takeSafely()));
    if (budgetMs === Infinity) return job;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), budgetMs)));
    const result = await Promise.race([job, timeout]);
    clearTimeout(timer);
    if (result === TIMED_OUT) abandoned = true;
    return result;
  }

  /** A snapshot that never throws; call it only inside the queue (`exclusive`). */
  async takeSafely(): Promise<Snapshot | undefined> {
    const run = { signal: this.signal };
    try {
      return await this.taker.take(run);
    } catch (err) {
      if (this.signal.aborted) return undefined;
      if (err instanceof ShadowGitError && err.run.code === GIT_NOT_FOUND) {
        this.disabled = err.message;
        this.warn(`Undo is off for this session: ${err.message}.`);
        return undefined;
      }
      if (err instanceof ShadowGitError && err.run.killed) {
        // Past the hard limit (a minute): the folder is too big to snapshot; trying again each step would only repeat it.
        this.disabled = err.message;
        await this.repo.dropIndex();
        this.warn(`Undo is off for this session: snapshotting ${this.repo.workspaceRoot} took over a minute (is it a very large folder, or your home folder?). Open a project folder, or add large folders to .gitignore.`);
        return undefined;
      }
      // A full disk or a folder we may not write is not damage: report it, keep the store as it is.
      if (!(err instanceof ShadowGitError) || /No space left|Permission denied|Read-only file system/i.test(err.run.stderr)) {
        this.warn(`This step's snapshot failed, so it cannot be undone: ${(err as Error).message}`);
        return undefined;
      }
    }
    let failure: unknown;
    try {
      await this.repo.dropIndex();
      return await this.taker.take(run);
    } catch (err) {
      failure = err;
    }
    if (this.signal.aborted) return undefined;
    if (await this.repo.isRepository()) {
      this.warn(`This step's snapshot failed, so it cannot be undone: ${(failure as Error).message}`);
      return undefined;
    }
    try {
      const aside = await this.repo.replaceDamaged();
      const snapshot = await this.taker.take(run);
      this.warn(`The undo snapshots of this project (${this.repo.gitDir}) were damaged: they are set aside in ${aside} and a new store is in use. Earlier steps can still be undone where their snapshots survived.`);
      return snapshot;
    } catch (err) {
      this.warn(`Snapshots are not working, so steps cannot be undone: ${(err as Error).message}`);
      return undefined;
    }
  }
}
