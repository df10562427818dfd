// Exclusive locks between OpenDev processes (a VS Code window and a CLI on the same session): a lock
// file created with O_EXCL holding who took it and when. It is held for one write, never for a whole
// conversation, so a waiting writer gets it within milliseconds. A lock left by a killed process (its
// pid is gone) or older than any write can take is broken, with a note. Within one process, writes
// to the same file are queued instead, since a process cannot wait for its own lock file.
import { randomBytes } from 'node:crypto';
import { link, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import * as z from 'zod';
import { PRIVATE_FILE_MODE } from '../config/private-files';
import { KeyedSerialQueue } from '../serial-queue';

export interface LockOptions {
  /** Give up after waiting this long for another process (paper: 10 s). */
  timeoutMs?: number;
  /** A lock older than this is stale whoever holds it: no single write takes that long. */
  staleMs?: number;
  /** Told when a stale lock is broken. */
  onNote?: (note: string) => void;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
export const DEFAULT_LOCK_STALE_MS = 30_000;
const RETRY_MS = 20;

const HolderSchema = z.object({ pid: z.number().int(), host: z.string(), acquiredAt: z.string(), token: z.string() });
export type LockHolder = z.infer<typeof HolderSchema>;

/** Another process held the lock for the whole timeout; nothing was written. */
export class SessionLockedError extends Error {
  override readonly name = 'SessionLockedError';
  constructor(
    readonly lockFile: string,
    readonly holder: LockHolder | undefined,
    readonly waitedMs: number,
  ) {
    super(
      `${lockFile} is locked by ${holder ? `process ${holder.pid} on ${holder.host} (since ${holder.acquiredAt})` : 'another process'}; ` +
        `gave up after ${(waitedMs / 1000).toFixed(1)} s. Nothing was written.`,
    );
  }
}

const queues = new KeyedSerialQueue();

/**
 * Runs `fn` after every job this process queued earlier under `key` has settled (one at a time per
 * key, a failure does not stop the next); the key is forgotten once its queue is empty.
 */
export function inTurn<T>(key: string, fn: () => Promise<T>): Promise<T> {
  return queues.run(key, fn);
}

/** Runs `fn` holding `lockFile`: queued behind this process's other holders, then exclusive across processes. */
export function withFileLock<T>(lockFile: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  return inTurn(lockFile, () => holding(lockFile, fn, options));
}

async function holding<T>(lockFile: string, fn: () => Promise<T>, options: LockOptions): Promise<T> {
  const token = await acquire(lockFile, options);
  try {
    return await fn();
  } finally {
    await release(lockFile, token);
  }
}

async function acquire(lockFile: string, options: LockOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const holder: LockHolder = { pid: process.pid, host: hostname(), acquiredAt: '', token: randomBytes(8).toString('hex') };
  const started = Date.now();
  for (;;) {
    holder.acquiredAt = new Date().toISOString();
    if (await tryCreate(lockFile, holder)) return holder.token;
    const current = await readHolder(lockFile);
    if (current === 'gone') continue;
    const why = staleReason(current, staleMs);
    if (why) {
      await breakLock(lockFile, current, why, options.onNote);
      continue;
    }
    const waited = Date.now() - started;
    if (waited >= timeoutMs) throw new SessionLockedError(lockFile, current.holder, waited);
    await sleep(RETRY_MS + Math.random() * RETRY_MS);
  }
}

/**
 * Creates the lock file whole: written to a temp file, then hard-linked into place (fails if the
 * lock exists). A writer killed at any instant thus never leaves an empty lock file, which no one
 * could tell from a lock being written right now.
 */
async function tryCreate(lockFile: string, holder: LockHolder): Promise<boolean> {
  const temp = `${lockFile}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, JSON.stringify(holder), { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
    await link(temp, lockFile);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw err;
    return createExclusive(lockFile, holder); // a file system without hard links
  } finally {
    await rm(temp, { force: true });
  }
}

async function createExclusive(lockFile: string, holder: LockHolder): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockFile, 'wx', PRIVATE_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(JSON.stringify(holder), 'utf8');
  } catch (err) {
    await handle.close().catch(() => undefined);
    await rm(lockFile, { force: true });
    throw err;
  }
  await handle.close();
  return true;
}

async function release(lockFile: string, token: string): Promise<void> {
  // Only our own lock: if ours was broken as stale meanwhile, the file is someone else's now.
  const current = await readHolder(lockFile);
  if (current !== 'gone' && current.holder?.token === token) await rm(lockFile, { force: true });
}

interface SeenLock {
  holder: LockHolder | undefined;
  /** The file's text, to tell whether it is still the same lock when we break it. */
  text: string;
  ageMs: number;
}

async function readHolder(lockFile: string): Promise<SeenLock | 'gone'> {
  try {
    const [text, info] = await Promise.all([readFile(lockFile, 'utf8'), stat(lockFile)]);
    let holder: LockHolder | undefined;
    try {
      const parsed = HolderSchema.safeParse(JSON.parse(text));
      if (parsed.success) holder = parsed.data;
    } catch {
      // Being written right now, or garbage: judged by its age alone.
    }
    const since = holder ? Date.parse(holder.acquiredAt) : NaN;
    return { holder, text, ageMs: Date.now() - (Number.isNaN(since) ? info.mtimeMs : Math.min(since, info.mtimeMs)) };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw err;
  }
}

function staleReason(lock: SeenLock, staleMs: number): string | undefined {
  const h = lock.holder;
  if (h && h.host === hostname() && h.pid !== process.pid && !processAlive(h.pid)) return `process ${h.pid} is no longer running`;
  if (lock.ageMs > staleMs) return `it is ${(lock.ageMs / 1000).toFixed(0)} s old`;
  return undefined;
}

/**
 * Moves the stale lock aside (atomic: of two breakers only one gets it), then checks that what it
 * moved is the lock judged stale; a fresh lock taken meanwhile is put back.
 */
async function breakLock(lockFile: string, seen: SeenLock, why: string, onNote?: (note: string) => void): Promise<void> {
  const aside = `${lockFile}.stale-${randomBytes(4).toString('hex')}`;
  try {
    await rename(lockFile, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    const moved = await readFile(aside, 'utf8');
    if (moved !== seen.text) {
      await link(aside, lockFile).catch(() => undefined);
      return;
    }
    const who = seen.holder ? `process ${seen.holder.pid} on ${seen.holder.host}, since ${seen.holder.acquiredAt}` : 'an unknown process';
    onNote?.(`broke a stale lock ${lockFile} (held by ${who}): ${why}`);
  } finally {
    await rm(aside, { force: true });
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
