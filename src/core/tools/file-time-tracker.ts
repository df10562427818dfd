import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ToolError } from '../tool-result';
import { KeyedSerialQueue } from '../serial-queue';

/** How much newer than our last read or write a file may be before an edit calls it stale (paper: 50 ms). */
export const STALE_TOLERANCE_MS = 50;

/**
 * When the agent last saw each file (read it, wrote it), so an edit can refuse to change a file
 * that changed since; and one lock per file, so concurrent edits of one file run one after the
 * other, each on the content the previous one left (no lost update). One per session.
 */
export class FileTimeTracker {
  private readonly seen = new Map<string, number>();

  constructor(private readonly locks = new KeyedSerialQueue()) {}

  /**
   * A tracker with its own read times but this one's file locks: for a subagent, which must
   * read a file itself before editing it, while its edits still queue behind everyone else's.
   */
  sharingLocks(): FileTimeTracker {
    return new FileTimeTracker(this.locks);
  }

  /** The agent has the content as of now (or as of the file's own mtime, if that is later). */
  recordRead(file: string, mtimeMs = 0): void {
    this.seen.set(key(file), Math.max(Date.now(), mtimeMs));
  }

  /** The agent wrote the file: its content is known as much as after a read. */
  recordWrite(file: string, mtimeMs = 0): void {
    this.recordRead(file, mtimeMs);
  }

  lastSeen(file: string): number | undefined {
    return this.seen.get(key(file));
  }

  forget(file: string): void {
    this.seen.delete(key(file));
  }

  /**
   * Throws an edit_mismatch ToolError when the file was never read (or written) by the agent, or
   * changed on disk more than STALE_TOLERANCE_MS after that.
   */
  async assertFresh(file: string, shown: string): Promise<void> {
    const seen = this.lastSeen(file);
    if (seen === undefined) {
      throw new ToolError('edit_mismatch', `${shown} has not been read in this session. Read it with read_file first, then edit it.`);
    }
    const info = await stat(file);
    if (info.mtimeMs > seen + STALE_TOLERANCE_MS) {
      const ago = new Date(info.mtimeMs).toISOString();
      throw new ToolError(
        'edit_mismatch',
        `${shown} changed on disk (modified ${ago}) after you last read it. Read it again first with read_file, then redo the edit on the current content.`,
      );
    }
  }

  /** Runs `work` once every earlier holder of this file's lock is done (fair, FIFO). */
  withLock<T>(file: string, work: () => Promise<T>): Promise<T> {
    return this.locks.run(key(file), work);
  }
}

function key(file: string): string {
  return resolve(file);
}

/** Used when a context carries no tracker (plain unit tests, hosts not yet wiring one). */
const processTracker = new FileTimeTracker();

/** The session's tracker: ctx.files, else one shared by the whole process. */
export function fileTracker(ctx: { files?: FileTimeTracker }): FileTimeTracker {
  return ctx.files ?? processTracker;
}
