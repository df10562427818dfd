import { lstat, readdir, rmdir, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { StepRecord } from './operation-log';
import type { ShadowRepo } from './shadow-repo';

/**
 * Puts back exactly the paths one step changed: files it created are removed (and the folders that
 * held only them), files it modified or deleted are written from the snapshot before it. Every other
 * file, including ones the user edited meanwhile, is left alone.
 */
export async function restoreStep(repo: ShadowRepo, step: StepRecord): Promise<{ restored: string[]; removed: string[] }> {
  const skipped = new Set(step.skipped.map((s) => s.path));
  const removed = step.changed.filter((c) => c.change === 'added' && !skipped.has(c.path)).map((c) => c.path);
  const restored = step.changed.filter((c) => c.change !== 'added' && !skipped.has(c.path)).map((c) => c.path);
  // Removals first: a step that replaced a file by a folder gets the folder emptied before the file returns.
  for (const path of removed) await removeCreated(repo.workspaceRoot, path);
  await repo.checkout(step.before, restored);
  return { restored, removed };
}

async function removeCreated(root: string, path: string): Promise<void> {
  const file = join(root, path);
  const stat = await lstat(file).catch(() => undefined);
  // A folder where the step created a file: the user's since; not ours to delete.
  if (!stat || stat.isDirectory()) return;
  await unlink(file);
  await removeEmptyParents(root, dirname(file));
}

/** Folders left empty by the removal go too (git keeps no empty folders, so they held only what the step created). */
async function removeEmptyParents(root: string, dir: string): Promise<void> {
  while (dir.startsWith(root) && dir !== root) {
    const entries = await readdir(dir).catch(() => undefined);
    if (!entries || entries.length > 0) return;
    await rmdir(dir).catch(() => undefined);
    dir = dirname(dir);
  }
}
