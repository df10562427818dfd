import { readdir, stat, utimes, writeFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../config/private-files';
import type { ShadowRepo } from './shadow-repo';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The undo horizon: snapshots older than this are pruned, and so are damaged stores set aside. */
const WEEK_MS = 7 * DAY_MS;
const MARKER = 'opendev-last-gc';

/**
 * The shadow repo's housekeeping, at most once a day per project: `git gc --prune=7.days` (snapshots
 * are unreachable trees, so this is what bounds the store: a week of undo history) and the indexes
 * of sessions that ended without handing theirs on (a crash) after a day, a damaged store set aside
 * after a week, a store a killed process left half-built after a day. The marker is touched
 * before gc starts, so a crashed or killed gc is not retried in a loop; a new store's first gc is a day
 * after it was made.
 */
export async function gcIfDue(repo: ShadowRepo, options: { now?: () => number; signal?: AbortSignal } = {}): Promise<'ran' | 'not_due'> {
  const now = options.now?.() ?? Date.now();
  const marker = join(repo.gitDir, MARKER);
  const last = await stat(marker).then((s) => s.mtimeMs).catch(() => undefined);
  const due = last !== undefined && now - last >= DAY_MS;
  if (last === undefined || due) {
    await writeFile(marker, `${new Date(now).toISOString()}\n`, { mode: PRIVATE_FILE_MODE });
    await utimes(marker, now / 1000, now / 1000);
  }
  // A new store starts its day now: nothing to collect yet.
  if (!due) return 'not_due';
  await removeStaleIndexes(repo, now);
  await removeStaleSiblings(repo, now);
  // At the lowest priority, so it yields to the user's work.
  await repo.git(['-c', 'gc.autoDetach=false', 'gc', '--quiet', '--prune=7.days'], { timeoutMs: 10 * 60_000, signal: options.signal, lowPriority: true });
  return 'ran';
}

async function removeStaleIndexes(repo: ShadowRepo, now: number): Promise<void> {
  const dir = join(repo.gitDir, 'indexes');
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const file = join(dir, name);
    if (file === repo.target.indexFile) continue;
    const mtime = await stat(file).then((s) => s.mtimeMs).catch(() => now);
    if (now - mtime > DAY_MS) await rm(file, { force: true });
  }
}

/** `<store>.damaged-<ms>` past the undo horizon, `<store>.new-<pid>-<hex>` (a killed creation) after a day. */
async function removeStaleSiblings(repo: ShadowRepo, now: number): Promise<void> {
  const parent = dirname(repo.gitDir);
  const name = basename(repo.gitDir);
  for (const entry of await readdir(parent).catch(() => [] as string[])) {
    const damagedAt = entry.startsWith(`${name}.damaged-`) ? Number(entry.slice(name.length + 9)) : undefined;
    const building = entry.startsWith(`${name}.new-`);
    if (damagedAt === undefined && !building) continue;
    const full = join(parent, entry);
    const since = damagedAt ?? (await stat(full).then((s) => s.mtimeMs).catch(() => now));
    if (now - since > (building ? DAY_MS : WEEK_MS)) await rm(full, { recursive: true, force: true });
  }
}
