import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { inTurn } from '../files/file-lock';
import { writeFileAtomic } from '../files/atomic-write';
import { readSettingsFile } from './settings-file';

/** Whether the change edited the settings (then they are written), or why it refused (nothing is written; `''`: nothing to do). */
export type SettingsChange = { changed: true } | { changed: false; refusal: string };

/** A settings file created here: readable by its owner only (it may hold --env and --header secrets). */
export const NEW_FILE_MODE = 0o600;

/**
 * Re-reads `file`, lets `change` edit its settings object in place, and writes it back atomically
 * (temp file + rename; an existing file keeps its permissions, a new one is 0600); every other key
 * stays as the user wrote it. Resolves to a problem in words when the file is broken, the change
 * refused, or the write failed; the file is then exactly as it was. One writer per file in this
 * process: two edits in a row must not read the same old file.
 */
export function updateSettingsFile(file: string, change: (settings: Record<string, unknown>) => SettingsChange): Promise<string | undefined> {
  return inTurn(file, async () => {
    const read = readSettingsFile(file);
    if (read.status !== 'missing' && read.status !== 'ok') return brokenSettingsFile(file, read.problem);
    const settings = read.status === 'ok' ? read.settings : {};
    const outcome = change(settings);
    if (!outcome.changed) return outcome.refusal;
    try {
      await mkdir(dirname(file), { recursive: true });
      const mode = await stat(file).then(
        (s) => s.mode & 0o777,
        () => NEW_FILE_MODE,
      );
      await writeFileAtomic(file, `${JSON.stringify(settings, null, 2)}\n`, { mode });
      return undefined;
    } catch (err) {
      return `Could not write ${file} (${(err as Error).message}); it is unchanged.`;
    }
  });
}

export function brokenSettingsFile(file: string, problem: string): string {
  return `${file} cannot be changed: ${problem}. Fix the file first; OpenDev leaves it as it is.`;
}
