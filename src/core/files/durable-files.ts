// Writes that survive a crash at any instant: a whole file goes to a temp file, is flushed to disk and
// renamed over the old one (readers see the old or the new file, never a mix); transcript lines are
// written at a known offset and flushed, and a failed write is cut back, so the file only ever holds
// whole lines. Failures become a SessionWriteError that says what went wrong in words.
import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { PRIVATE_FILE_MODE } from '../config/private-files';
import { writeFileAtomic } from './atomic-write';

/** What a file looked like after our last read or write (undefined: it did not exist). */
export type FileState = { size: number; mtimeMs: number } | undefined;

export async function fileState(file: string): Promise<FileState> {
  try {
    const info = await stat(file);
    return { size: info.size, mtimeMs: info.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export function sameState(a: FileState, b: FileState): boolean {
  return a === undefined || b === undefined ? a === b : a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/** Replaces `file` with `text` (writeFileAtomic: temp file, fsync, rename, fsync of the folder), private to the user. */
export async function writeFileDurably(file: string, text: string): Promise<FileState> {
  await writeFileAtomic(file, text, { mode: PRIVATE_FILE_MODE });
  return fileState(file);
}

/**
 * Writes `text` (whole lines) at byte `from`, first cutting whatever lies beyond it (the torn line of
 * a killed writer), and flushes it. If the write fails part-way (a full disk), the file is cut back
 * to `from`, so what was saved before stays exactly as it was.
 */
export async function writeLinesAt(file: string, from: number, text: string): Promise<FileState> {
  const handle = await open(file, constants.O_WRONLY | constants.O_CREAT, PRIVATE_FILE_MODE);
  try {
    const { size } = await handle.stat();
    if (size > from) await handle.truncate(from);
    const bytes = Buffer.from(text, 'utf8');
    try {
      for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done, bytes.length - done, from + done)).bytesWritten;
      await handle.datasync();
    } catch (err) {
      await handle.truncate(from).catch(() => undefined);
      throw err;
    }
    const info = await handle.stat();
    return { size: info.size, mtimeMs: info.mtimeMs };
  } finally {
    await handle.close();
  }
}

export type WriteFailureReason = 'disk_full' | 'permission' | 'locked' | 'io';

/** A session could not be saved; what is already on disk is unchanged. */
export class SessionWriteError extends Error {
  override readonly name = 'SessionWriteError';
  constructor(
    readonly reason: WriteFailureReason,
    readonly sessionId: string,
    detail: string,
    cause?: unknown,
  ) {
    super(`Could not save session ${sessionId}: ${detail}. What was saved before is intact.`, { cause });
  }
}

/** Names the failure a user can act on: a full disk, a permission, a lock held elsewhere. */
export function writeFailure(err: unknown): { reason: WriteFailureReason; detail: string } {
  const e = err as NodeJS.ErrnoException;
  if (e?.name === 'SessionLockedError') return { reason: 'locked', detail: e.message };
  switch (e?.code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return { reason: 'disk_full', detail: `the disk is full (${e.code})` };
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return { reason: 'permission', detail: `no permission to write ${e.path ?? 'the session folder'} (${e.code})` };
    default:
      return { reason: 'io', detail: e?.message ?? String(err) };
  }
}
