// Why this exists: deleting a variable from process.env (unsetenv) only drops libc's pointer to it.
// On Linux, /proc/<pid>/environ does not show the live environment: the kernel reads the block the
// process was started with (mm->env_start..env_end, fields 50 and 51 of /proc/<pid>/stat), which
// still holds every original NAME=VALUE. Any child running as the same user (`cat
// /proc/$PPID/environ` from run_command, a hook, an MCP server) could read a key we had "removed".
// So the values of the secrets we took out are overwritten with NUL bytes in that block, in place,
// through /proc/self/mem (a process may always write its own memory there). The block's layout is
// kept (the other variables stay at their addresses: libc's environ still points into it), and only
// variables already gone from process.env are touched, so nothing in this process reads them again.
// Best effort and Linux only: anything unexpected leaves the block as it is and never throws.
import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

export type ScrubOutcome = { scrubbed: number } | { skipped: string };

/** The environment block stays below this (Linux caps it near ARG_MAX); more means /proc/self/stat was misread. */
const MAX_BLOCK = 64 * 1024 * 1024;

/**
 * Overwrites the values of the variables named in `names` (already deleted from process.env) in
 * this process's original environment block, so /proc/<pid>/environ shows `NAME=` and NULs.
 */
export function scrubEnvironBlock(names: ReadonlySet<string>): ScrubOutcome {
  if (process.platform !== 'linux') return { skipped: 'not Linux' };
  if (names.size === 0) return { scrubbed: 0 };
  let fd: number | undefined;
  try {
    const range = environRange(readFileSync('/proc/self/stat', 'utf8'));
    if (!range) return { skipped: '/proc/self/stat has no environment range' };
    const [start, end] = range;
    const block = Buffer.alloc(end - start);
    fd = openSync('/proc/self/mem', 'r+');
    if (readSync(fd, block, 0, block.length, start) !== block.length) return { skipped: 'short read of the environment block' };
    let scrubbed = 0;
    for (let at = 0; at < block.length; ) {
      let stop = block.indexOf(0, at);
      if (stop < 0) stop = block.length;
      const eq = block.indexOf(0x3d /* = */, at);
      if (eq > at && eq < stop && names.has(block.toString('utf8', at, eq)) && stop > eq + 1) {
        const zeros = Buffer.alloc(stop - eq - 1);
        if (writeSync(fd, zeros, 0, zeros.length, start + eq + 1) === zeros.length) scrubbed++;
      }
      at = stop + 1;
    }
    return { scrubbed };
  } catch (err) {
    return { skipped: (err as Error).message ?? String(err) };
  } finally {
    if (fd !== undefined) {
      try {
        closeSync(fd);
      } catch {
        /* nothing to do */
      }
    }
  }
}

/** env_start and env_end from the text of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
export function environRange(stat: string): [number, number] | undefined {
  const close = stat.lastIndexOf(')');
  if (close < 0) return undefined;
  // Field 3 (state) is the first after ") "; fields 50 and 51 are env_start and env_end.
  const fields = stat.slice(close + 2).trim().split(/\s+/);
  const start = Number(fields[50 - 3]);
  const end = Number(fields[51 - 3]);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start <= 0 || end <= start || end - start > MAX_BLOCK) return undefined;
  return [start, end];
}
