// A small JSON file of the user's records (trust answers, confirmed endpoints), changed under a lock
// and written atomically with mode 0600: another OpenDev process may be answering at the same time,
// and a crash mid-write must leave the old file. A file that does not parse is never overwritten:
// it trusts nothing, and the caller says so.
import { dirname } from 'node:path';
import type { z } from 'zod';
import { mkdirPrivate, PRIVATE_FILE_MODE } from '../config/private-files';
import { readSettingsFile } from '../config/settings-file';
import { withFileLock } from '../files/file-lock';
import { writeFileAtomic } from '../files/atomic-write';

export type RecordFileRead<T> = { status: 'ok'; data: T } | { status: 'broken'; problem: string };

export function readRecordFile<T>(file: string, schema: z.ZodType<T>, empty: () => T): RecordFileRead<T> {
  const read = readSettingsFile(file);
  if (read.status === 'missing') return { status: 'ok', data: empty() };
  if (read.status !== 'ok') return { status: 'broken', problem: read.problem };
  const parsed = schema.safeParse(read.settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { status: 'broken', problem: issue ? `${issue.path.join('.') || 'the file'}: ${issue.message}` : 'it is not a record file' };
  }
  return { status: 'ok', data: parsed.data };
}

/**
 * Re-reads the file under its lock, applies `change` and writes the result (0600). Resolves to the
 * problem in words when nothing could be saved; the file is then as it was.
 */
export async function updateRecordFile<T>(file: string, schema: z.ZodType<T>, empty: () => T, change: (data: T) => T): Promise<string | undefined> {
  try {
    await mkdirPrivate(dirname(file));
    return await withFileLock(`${file}.lock`, async () => {
      const read = readRecordFile(file, schema, empty);
      if (read.status === 'broken') return `${file} cannot be used (${read.problem}); fix or delete it. OpenDev leaves it as it is.`;
      const next = change(read.data);
      if (JSON.stringify(next) === JSON.stringify(read.data)) return undefined;
      await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
      return undefined;
    });
  } catch (err) {
    return `Could not write ${file} (${(err as Error).message}); it is unchanged.`;
  }
}
