import { homedir } from 'node:os';
import { dirname, isAbsolute, posix, resolve } from 'node:path';
import { programOf } from './command-program';
import { commandName, normalizeLineBreaks, parseShellLine, type SimpleCommand } from './shell-words';

/**
 * Stage 1 of run_command (appendix E): commands that are refused whatever the approval level or the
 * user's rules say. The list is the paper's (recursive deletes of `/`, home or the workspace,
 * privilege escalation, fork bombs, piping a download into a shell, writing to raw devices,
 * formatting disks, reverse shells) plus a few of the same kind. The approval step (core/safety)
 * runs the same check first, on the line and on every simple command it splits out, and adds the
 * danger rules of the permission files; nothing overrides a refusal.
 */
export interface DangerVerdict {
  blocked: boolean;
  /** The rule's id, e.g. `delete-protected`. */
  rule?: string;
  /** One sentence for the model and the user: what was recognised. */
  reason?: string;
}

export interface DangerContext {
  /** Where the command runs (the workspace root). Relative targets resolve against it. */
  cwd?: string;
  /** The user's home folder; default `os.homedir()`. */
  home?: string;
}

/** What a rule sees: one simple command (wrappers such as `env`, `nohup`, `timeout` removed). */
export interface CommandView {
  /** The command's name without its directory (`/bin/rm` → `rm`). */
  name: string;
  args: string[];
  redirects: SimpleCommand['redirects'];
  /** Where it runs, when known (unknown after a `cd` earlier on the line). */
  cwd?: string;
  home: string;
  /** Paths that must never be deleted, moved or opened up: `/`, system folders, home, the workspace and their ancestors. */
  isProtected(path: string): boolean;
}

export interface DangerRule {
  id: string;
  /** Checks one simple command; returns the reason when it matches. */
  command?(cmd: CommandView): string | undefined;
  /** Checks the whole command line (line breaks normalised); returns the reason when it matches. */
  line?(text: string): string | undefined;
}

const SYSTEM_DIRS = [
  '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/opt', '/proc', '/root', '/sbin',
  '/srv', '/sys', '/usr', '/var', '/Applications', '/Library', '/System', '/Users', '/private',
];
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'ash', 'busybox']);
const PRIVILEGE = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0']);
const FIND_TESTS = /^-(?:i?name|i?l?path|i?wholename|i?regex|type|xtype|[amc](?:time|min)|newer\w*|size|user|group|uid|gid|nouser|nogroup|perm|empty|links|inum|samefile|lname|ilname|fstype|used|readable|writable|executable)$/;
const DEVICE = /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|loop|sr|mapper\/|mem$|kmem$|port$)/;

export const DEFAULT_DANGER_RULES: readonly DangerRule[] = [
  {
    id: 'privilege-escalation',
    command: (c) => (PRIVILEGE.has(c.name) ? `\`${c.name}\` runs commands as another user (root); OpenDev never runs privileged commands` : undefined),
  },
  {
    id: 'delete-protected',
    command: (c) => {
      if (c.name !== 'rm' && c.name !== 'rmdir' && c.name !== 'unlink' && c.name !== 'shred') return undefined;
      const target = operands(c.args).find((a) => c.isProtected(a));
      return target !== undefined ? `\`${c.name}\` of ${describeTarget(target)}` : undefined;
    },
  },
  {
    id: 'move-protected',
    command: (c) => {
      if (c.name !== 'mv') return undefined;
      const sources = operands(c.args).slice(0, -1);
      const target = sources.find((a) => c.isProtected(a));
      return target !== undefined ? `\`mv\` of ${describeTarget(target)}` : undefined;
    },
  },
  {
    id: 'find-delete',
    command: (c) => {
      if (c.name !== 'find') return undefined;
      const deletes = c.args.includes('-delete') || c.args.some((a, i) => (a === '-exec' || a === '-execdir') && commandName(c.args[i + 1] ?? '') === 'rm');
      // `find . -name '*.pyc' -delete` deletes what matches; without a test it deletes everything.
      const filtered = c.args.some((a) => FIND_TESTS.test(a));
      const root = c.args.find((a) => !a.startsWith('-') && c.isProtected(a));
      return deletes && !filtered && root !== undefined ? `\`find … -delete\` over ${describeTarget(root)}` : undefined;
    },
  },
  {
    id: 'permissions-protected',
    command: (c) => {
      if (c.name !== 'chmod' && c.name !== 'chown' && c.name !== 'chgrp') return undefined;
      const recursive = c.args.some((a) => /^-[a-zA-Z]*R/.test(a) || a === '--recursive');
      const target = operands(c.args).slice(1).find((a) => c.isProtected(a) && (recursive || isRoot(a)));
      return target !== undefined ? `\`${c.name}${recursive ? ' -R' : ''}\` of ${describeTarget(target)}` : undefined;
    },
  },
  {
    id: 'device-write',
    command: (c) => {
      const output = c.name === 'dd' ? c.args.find((a) => a.startsWith('of=') && DEVICE.test(a.slice(3))) : undefined;
      if (output) return `\`dd ${output}\` overwrites a disk device`;
      const redirect = c.redirects.find((r) => r.op.includes('>') && DEVICE.test(r.target));
      if (redirect) return `a redirection into the disk device ${redirect.target}`;
      if ((c.name === 'shred' || c.name === 'cp' || c.name === 'tee') && operands(c.args).some((a) => DEVICE.test(a))) {
        return `\`${c.name}\` onto a disk device`;
      }
      return undefined;
    },
  },
  {
    id: 'format-disk',
    command: (c) => (/^(?:mkfs(?:\.\w+)?|mke2fs|mkswap|wipefs|newfs(?:_\w+)?)$/.test(c.name) ? `\`${c.name}\` formats or wipes a disk` : undefined),
  },
  {
    id: 'shutdown',
    command: (c) => {
      if (/^(?:shutdown|reboot|halt|poweroff)$/.test(c.name)) return `\`${c.name}\` stops the machine`;
      if (c.name === 'init' && /^[06]$/.test(c.args[0] ?? '')) return '`init 0/6` stops the machine';
      if (c.name === 'systemctl' && c.args.some((a) => /^(?:poweroff|reboot|halt|kexec)$/.test(a))) return '`systemctl` power action stops the machine';
      return undefined;
    },
  },
  {
    id: 'kill-everything',
    // `kill -9 -1` (pid -1 = every process the user may signal); `kill -1 <pid>` is only SIGHUP.
    command: (c) => (c.name === 'kill' && c.args.length >= 2 && c.args[c.args.length - 1] === '-1' ? '`kill … -1` signals every process of the user' : undefined),
  },
  {
    id: 'reverse-shell',
    // An interactive shell wired to a network socket, or a netcat/socat that hands one over.
    command: (c) => {
      const socket = c.redirects.some((r) => /^\/dev\/(?:tcp|udp)\//.test(r.target));
      if (socket && SHELLS.has(c.name) && c.args.some((a) => /^-[a-zA-Z]*i/.test(a))) return `\`${c.name} -i\` connected to a network socket (a reverse shell)`;
      if (/^(?:nc|ncat|netcat)$/.test(c.name) && c.args.some((a, i) => /^-[a-zA-Z]*[ec]$/.test(a) && c.args[i + 1] !== undefined && SHELLS.has(commandName(c.args[i + 1]!)))) return `\`${c.name} -e\` hands a shell to the network (a reverse shell)`;
      if (c.name === 'socat' && c.args.some((a) => /^(?:exec|system):.*\b(?:ba|z|k|da)?sh\b/i.test(a))) return '`socat exec:` hands a shell to the network (a reverse shell)';
      return undefined;
    },
  },
  {
    id: 'fork-bomb',
    line: (text) => (/([\w:.-]+)\s*\(\s*\)\s*\{[^}]*?\1\s*\|\s*&?\s*\1/.test(text) ? 'a fork bomb' : undefined),
  },
  {
    id: 'pipe-to-shell',
    line: (text) => {
      const shell = String.raw`(?:\S*\/)?(?:ba|z|k|da|fi|a|mk)?sh\b`;
      const piped = new RegExp(String.raw`\b(?:curl|wget|fetch|aria2c)\b[^\n]*?\|\s*(?:sudo\s+)?(?:env\s+(?:\S+=\S*\s+)*)?${shell}`);
      const substituted = new RegExp(String.raw`(?:${shell}|\bsource|(?:^|[\s;&|])\.|\beval)\s*(?:-\S+\s+)*["']?(?:<\(|\$\(|\`)\s*(?:curl|wget|fetch)\b`);
      return piped.test(text) || substituted.test(text) ? 'a downloaded script is piped into a shell' : undefined;
    },
  },
  {
    id: 'delete-protected',
    // A backstop for forms the reader does not split (zsh glob qualifiers and the like): `rm` of
    // `/`, `/*`, `~` or `$HOME` anywhere on the line.
    line: (text) =>
      /(?:^|[^\w.\/-])rm\s+(?:-{1,2}[\w-]+\s+)*(?:\/\*?|~\/?\*?|\$\{?HOME\}?\/?\*?)(?=$|[\s;&|)`:'"])/.test(text) ? '`rm` of the root, or of the home folder' : undefined,
  },
];

/**
 * Decides whether a command line is refused outright. Every simple command on the line is checked
 * (after `;`, `&&`, pipes, newlines including Unicode ones, inside `$(…)`, backticks, `bash -c` and
 * `eval`), so a dangerous command cannot hide behind a harmless one.
 */
export function checkDanger(command: string, context: DangerContext = {}, rules: readonly DangerRule[] = DEFAULT_DANGER_RULES): DangerVerdict {
  const home = stripSlash(context.home ?? homedir());
  const protectedPaths = protectedSet(home, context.cwd);
  const seen = new Set<string>();

  const visit = (text: string, cwd: string | undefined, depth: number): DangerVerdict => {
    if (depth > 6 || seen.has(text)) return { blocked: false };
    seen.add(text);
    const parsed = parseShellLine(text);
    let where = cwd;
    for (const simple of parsed.commands) {
      const { name, args } = programOf(simple.words);
      if (!name) continue;
      const view: CommandView = {
        name,
        args,
        redirects: simple.redirects,
        cwd: where,
        home,
        isProtected: (path) => isProtectedPath(path, where, home, protectedPaths),
      };
      for (const rule of rules) {
        const reason = rule.command?.(view);
        if (reason) return { blocked: true, rule: rule.id, reason };
      }
      // Scripts run by a shell or eval are commands too.
      const script = SHELLS.has(name) ? shellScript(args) : name === 'eval' ? args.join(' ') : undefined;
      if (script) {
        const inner = visit(script, where, depth + 1);
        if (inner.blocked) return inner;
      }
      if (name === 'cd' || name === 'pushd' || name === 'popd') where = undefined;
    }
    for (const body of parsed.nested) {
      const inner = visit(body, cwd, depth + 1);
      if (inner.blocked) return inner;
    }
    // Whole-line patterns last, so a command-level rule names the problem more precisely first.
    const normalized = normalizeLineBreaks(text);
    for (const rule of rules) {
      const reason = rule.line?.(normalized);
      if (reason) return { blocked: true, rule: rule.id, reason };
    }
    return { blocked: false };
  };
  return visit(command, context.cwd ? stripSlash(context.cwd) : undefined, 0);
}

/** The script of `bash -c 'script'` (also `-lc`, `-ec`…), if any. */
function shellScript(args: readonly string[]): string | undefined {
  const flag = args.findIndex((a) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
  return flag === -1 ? undefined : args[flag + 1];
}

/** Arguments that are not options (everything after `--` counts). */
function operands(args: readonly string[]): string[] {
  const out: string[] = [];
  let options = true;
  for (const a of args) {
    if (options && a === '--') {
      options = false;
      continue;
    }
    if (options && a.startsWith('-') && a !== '-') continue;
    out.push(a);
  }
  return out;
}

function protectedSet(home: string, cwd: string | undefined): Set<string> {
  const set = new Set<string>(['/', ...SYSTEM_DIRS, home, ...ancestors(home)]);
  if (cwd) {
    const root = stripSlash(cwd);
    set.add(root);
    for (const a of ancestors(root)) set.add(a);
  }
  return set;
}

function ancestors(path: string): string[] {
  const out: string[] = [];
  let current = path;
  while (dirname(current) !== current) {
    current = dirname(current);
    out.push(current);
  }
  return out;
}

/** Resolves a target as the shell would see it (`~`, `$HOME`, `$PWD`, `.`, `..`, a trailing `/*`). */
function isProtectedPath(raw: string, cwd: string | undefined, home: string, set: ReadonlySet<string>): boolean {
  let path = raw.trim();
  if (path === '') return false;
  path = path.replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/, home).replace(/^(?:\$PWD|\$\{PWD\})(?=\/|$)/, cwd ?? '\0');
  if (path.includes('\0')) return false;
  // `dir/*`, `dir/.*`, `dir/.` and `*` all mean "everything in dir".
  path = path.replace(/\/(?:\.?\*|\.)$/, '/').replace(/^(?:\.?\*|\.\/\*)$/, '.');
  if (/[*?[]/.test(path)) return false;
  if (!isAbsolute(path)) {
    if (!cwd) return false;
    path = resolve(cwd, path);
  }
  return set.has(stripSlash(posix.normalize(path)));
}

function isRoot(path: string): boolean {
  return /^\/+\*?$/.test(path.trim());
}

function stripSlash(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

function describeTarget(target: string): string {
  return isRoot(target) ? 'the root folder `/`' : `\`${target}\` (a protected folder: the root, a system folder, your home or the workspace)`;
}
