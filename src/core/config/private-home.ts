// Installs from before "private by default" left OPENDEV_HOME open to everyone (folders 0755, files
// 0644). Each host calls tightenOpendevHome once at start: a home that is already private costs one
// stat; an older one is walked once and closed, and the user is told in one note.
import { constants, type Dirent } from 'node:fs';
import { chmod, lstat, open, readdir, stat, type FileHandle } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, parse, relative, resolve } from 'node:path';
import { mkdirPrivate } from './private-files';

export interface TightenOptions {
  /** Default: `process.platform` (Windows has no such modes: nothing is done there). */
  platform?: NodeJS.Platform;
  /** The user's OS home folder, which is never walked (OPENDEV_HOME=~); default `os.homedir()`. */
  userHome?: string;
}

/** Group and other permission bits: what "private" takes away. */
const OPEN_BITS = 0o077;
/** How many problems the note names; the rest are counted. */
const NAMED_PROBLEMS = 3;

type Kind = 'folder' | 'file';

/**
 * Makes OPENDEV_HOME private: creates it 0700 when missing (no note). When it exists with any group
 * or other permission, every folder and file under it loses those (`chmod -R go-rwx`: folders
 * 0755 → 0700, files 0644 → 0600, an executable 0755 → 0700 so a skill's script stays runnable;
 * the owner's own bits are kept, so git's read-only objects stay 0400), the home itself last, so a
 * walk cut short is done again on the next start. Symbolic links are neither followed nor changed.
 * Never throws: resolves to the note for the user (what was changed, what could not be), or
 * undefined when there is nothing to say.
 */
export async function tightenOpendevHome(home: string, options: TightenOptions = {}): Promise<string | undefined> {
  if ((options.platform ?? process.platform) === 'win32') return undefined;
  let info;
  try {
    info = await stat(home);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return `could not check that ${home} is private (${message(err)}).`;
    await mkdirPrivate(home).catch(() => undefined); // the first write under it reports what went wrong
    return undefined;
  }
  if (!info.isDirectory() || (info.mode & OPEN_BITS) === 0) return undefined;
  const refusal = notOurs(home, info.uid, options.userHome ?? homedir());
  if (refusal) return `${home} is open to other users, and OpenDev leaves it as it is: ${refusal}. Point OPENDEV_HOME at a folder of OpenDev's own.`;

  const walk = new Walk();
  await walk.folder(home);
  await walk.apply(home, info.mode, (mode) => chmod(home, mode));
  return walk.note(home);
}

/** Why `home` is not a folder OpenDev may close wholesale (a shared or system folder), if it is not. */
function notOurs(home: string, uid: number, userHome: string): string | undefined {
  const at = resolve(home);
  if (at === parse(at).root) return 'it is the root of the file system';
  const rel = relative(at, resolve(userHome));
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return 'it is your home folder or contains it';
  if (typeof process.getuid === 'function' && uid !== process.getuid()) return 'it belongs to another user';
  return undefined;
}

class Walk {
  private changed = 0;
  private readonly problems: string[] = [];

  async folder(dir: string): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      this.problem(dir, err);
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      // readdir reports a link as a link (lstat): it is skipped, so nothing outside the home is touched.
      if (entry.isDirectory()) {
        if (await this.close(path, 'folder')) await this.folder(path);
      } else if (entry.isFile()) {
        await this.close(path, 'file');
      }
    }
  }

  /** Takes the group and other bits off `path` (unchanged when `mode` has none); false when that failed. */
  async apply(path: string, mode: number, set: (mode: number) => Promise<void>): Promise<boolean> {
    if ((mode & OPEN_BITS) === 0) return true;
    try {
      await set(mode & 0o700);
      this.changed++;
      return true;
    } catch (err) {
      return this.problem(path, err);
    }
  }

  note(home: string): string {
    const done = `${home} was open to other users; OpenDev made it private (folders 0700, files 0600; ${this.changed} changed)`;
    if (this.problems.length === 0) return `${done}.`;
    const named = this.problems.slice(0, NAMED_PROBLEMS).join('; ');
    const more = this.problems.length > NAMED_PROBLEMS ? ` and ${this.problems.length - NAMED_PROBLEMS} more` : '';
    return `${done}, but could not change ${this.problems.length} (${named}${more}); run chmod -R go-rwx ${home} to finish.`;
  }

  /** Opens the entry without following a link (one swapped in since readdir stays untouched) and changes it through the handle. */
  private async close(path: string, kind: Kind): Promise<boolean> {
    const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | (kind === 'folder' ? constants.O_DIRECTORY : 0);
    let handle: FileHandle;
    try {
      handle = await open(path, flags);
    } catch (err) {
      // A file its owner may not read (0200) cannot be opened, yet may be changed: by name, after lstat.
      if ((err as NodeJS.ErrnoException).code === 'EACCES') return this.closeByName(path, kind);
      return this.problem(path, err);
    }
    try {
      const { mode } = await handle.stat();
      return await this.apply(path, mode, (wanted) => handle.chmod(wanted));
    } catch (err) {
      return this.problem(path, err);
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  private async closeByName(path: string, kind: Kind): Promise<boolean> {
    try {
      const info = await lstat(path);
      if (kind === 'folder' ? !info.isDirectory() : !info.isFile()) return false;
      return await this.apply(path, info.mode, (wanted) => chmod(path, wanted));
    } catch (err) {
      return this.problem(path, err);
    }
  }

  /** Records a failure; false, for the caller to return. */
  private problem(path: string, err: unknown): false {
    const code = (err as NodeJS.ErrnoException).code;
    // Gone meanwhile (a temp file renamed, a lock released), or a link swapped in (ELOOP): nothing to close.
    if (code !== 'ENOENT' && code !== 'ELOOP') this.problems.push(`${path}: ${message(err)}`);
    return false;
  }
}

function message(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ?? e.message ?? String(err);
}
