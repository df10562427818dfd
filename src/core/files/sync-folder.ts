import { open } from 'node:fs/promises';

/**
 * Flushes a folder's entries to disk, so a file just created or renamed into it survives a power
 * loss (fsync of the file flushes its data, not its name). Best effort: not every platform can
 * open a folder (Windows), and there the rename is as durable as the file system makes it.
 */
export async function syncFolder(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}
