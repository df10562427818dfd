import { randomBytes } from 'node:crypto';
import { chmod, link, open, realpath, rename, rm } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative } from 'node:path';
import { syncFolder } from './sync-folder';
import { ToolError } from '../tool-result';

/**
 * Writes a file (text as UTF-8, or bytes) so that readers see the old content or the new one,
 * never a half-written file: the data goes to a temporary file beside the target, is flushed,
 * then renamed over it, and the folder is flushed too (a write the tool reported survives a power
 * loss).
 * `exclusive` creates only: the temporary file is hard-linked to the target name, which fails
 * if something appeared there meanwhile (falls back to a checked rename where links are not
 * supported). `mode` is applied exactly (umask does not narrow it).
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, options: { exclusive?: boolean; mode?: number } = {}): Promise<void> {
  const temp = join(dirname(target), `.${basename(target)}.opendev-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', options.mode ?? 0o666);
  try {
    try {
      await (typeof data === 'string' ? handle.writeFile(data, 'utf8') : handle.writeFile(data));
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.mode !== undefined) await chmod(temp, options.mode);
    if (options.exclusive) await linkExclusive(temp, target);
    else await rename(temp, target);
  } finally {
    await rm(temp, { force: true });
  }
  await syncFolder(dirname(target));
}

/** Temp files of writeFileAtomic (and of the session store's older `<file>.<pid>.<random>.tmp`). */
const TEMP_FILE = /^\..+\.opendev-(\d+)-[0-9a-f]{8}\.tmp$|\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** The process that wrote a temp file left by a killed writer, or undefined when `name` is no such file. */
export function tempFileWriter(name: string): number | undefined {
  const match = TEMP_FILE.exec(name);
  return match ? Number(match[1] ?? match[2]) : undefined;
}

async function linkExclusive(temp: string, target: string): Promise<void> {
  try {
    await link(temp, target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw err;
    // Filesystems without hard links: a checked rename is the best left.
    const exists = await open(target, 'r').then(
      async (h) => (await h.close(), true),
      () => false,
    );
    if (exists) throw Object.assign(new Error(`EEXIST: ${target} exists`), { code: 'EEXIST' });
    await rename(temp, target);
  }
}

/**
 * The file a write really changes, following symlinks: refused when it lies outside the
 * workspace (a link inside the workspace must not become a way to write outside it).
 */
export async function realTargetInWorkspace(workspaceRoot: string, absolute: string, shown: string): Promise<string> {
  const [root, real] = await Promise.all([realpath(workspaceRoot).catch(() => workspaceRoot), realpath(absolute)]);
  const rel = relative(root, real);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new ToolError('permission', `${shown} leads through a symbolic link to ${real}, which is outside the workspace. Change files inside the workspace only.`);
  }
  return real;
}
