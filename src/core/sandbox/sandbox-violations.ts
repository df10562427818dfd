import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { SandboxPolicy } from './sandbox-policy';
import type { BlockedConnection } from './sandbox-runtime';

/**
 * What the sandbox stopped a command from doing, read from what the command printed (bubblewrap
 * reports no file events: a blocked write is the program's own "Read-only file system", a hidden
 * secret its "No such file") and from the proxy's refusals. The model reads these to choose
 * another path or to ask; /sandbox lists them for the session.
 */
export interface SandboxViolation {
  kind: 'write' | 'read' | 'network';
  /** The path (absolute) or `host:port`. */
  target: string;
  /** Why it was blocked, in words: "protected configuration", "outside the folders commands may write", … */
  why: string;
  /** The command, shortened, for /sandbox. */
  command?: string;
}

const WRITE_BLOCKED = /read-only file system|\bEROFS\b/i;
/** How programs say a path they were denied is not there, or not theirs. */
const PATH_ERROR = /no such file or directory|permission denied|operation not permitted|not a directory|file exists|\bENOENT\b|\bEACCES\b|\bEPERM\b|\bENOTDIR\b/i;
/**
 * Quoted paths (' " ` ‘ ’ “ ”), and bare absolute or relative paths followed by a colon ("bash: line 1: x: Read-only…").
 * The curly quotes are escapes: esbuild leaves regular expressions as written, and one character past
 * Latin-1 in the CLI's bundle makes Node read all of it as a two-byte string, slower to decode and parse.
 */
const QUOTED = /['"`\u2018\u201c]([^'"`\u2019\u201d\n]{1,4096})['"\u2019\u201d]/g;
const BARE = /(?:^|[\s(])((?:~|\.{1,2})?\/?[^\s:'"`\u2018\u2019\u201c\u201d()]+)(?=:\s)/g;

/** At most this many lines are read: the output the model sees is already cut to its head and tail. */
const MAX_LINES = 4000;

export function violationsOf(output: string, ctx: { policy: SandboxPolicy; cwd: string; home: string; blocked: readonly BlockedConnection[] }): SandboxViolation[] {
  const found: SandboxViolation[] = [];
  const add = (v: SandboxViolation) => {
    if (!found.some((f) => f.kind === v.kind && f.target === v.target)) found.push(v);
  };
  const lines = output.split('\n', MAX_LINES);
  for (const line of lines) {
    const writeBlocked = WRITE_BLOCKED.test(line);
    if (!writeBlocked && !PATH_ERROR.test(line)) continue;
    for (const path of pathsIn(line, ctx.cwd, ctx.home)) {
      const readOnly = ctx.policy.readOnly.find((p) => isInside(p, path));
      if (readOnly && (writeBlocked || /not a directory|file exists|ENOTDIR|EEXIST/i.test(line))) {
        add({ kind: 'write', target: path, why: `protected configuration (${shortName(readOnly, ctx.policy)}) is read-only in the sandbox` });
        continue;
      }
      const secret = ctx.policy.unreadable.find((p) => isInside(p, path)) && !ctx.policy.readable.some((p) => isInside(p, path));
      if (secret) {
        add({ kind: 'read', target: path, why: 'a secret location, which sandboxed commands cannot read' });
        continue;
      }
      if (writeBlocked && !ctx.policy.writable.some((p) => isInside(p, path))) {
        add({ kind: 'write', target: path, why: 'outside the folders sandboxed commands may write (the workspace, the temp folder, the tool caches)' });
      }
    }
  }
  for (const c of ctx.blocked) add({ kind: 'network', target: `${c.host}:${c.port}`, why: 'not in sandbox.network.allow' });
  return found;
}

function pathsIn(line: string, cwd: string, home: string): string[] {
  const out: string[] = [];
  const take = (raw: string) => {
    const text = raw.trim();
    if (!text || text.length > 4096 || /^[a-z]+:\/\//i.test(text)) return;
    if (!/[/~.]/.test(text)) return;
    const expanded = text === '~' ? home : text.startsWith('~/') ? `${home}/${text.slice(2)}` : text;
    out.push(isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded));
  };
  for (const m of line.matchAll(QUOTED)) take(m[1]!);
  // "/bin/bash: line 1: x: Read-only…": the first word names the program that reports, not the path.
  const bare = [...line.matchAll(BARE)];
  for (const m of bare.length > 1 && bare[0]!.index === 0 ? bare.slice(1) : bare) take(m[1]!);
  return out;
}

function shortName(path: string, policy: SandboxPolicy): string {
  const root = policy.writable[0];
  return root && isInside(root, path) ? relative(root, path).split(sep).join('/') : path;
}

function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
