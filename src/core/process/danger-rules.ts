import { commandName } from '../shell/shell-text';
import type { ShellCommand, ShellScript } from '../shell/shell-model';
import { programOf } from './command-program';
import { codeDeletesHomeOrRoot, inlineCode } from './inline-code';
import { interpreterOf, isShell } from './interpreters';
import { describeTarget, isRoot } from './protected-paths';

/**
 * The built-in danger rules (appendix E): recursive deletes of `/`, home or the workspace,
 * privilege escalation, fork bombs, a download or decoded blob run by an interpreter, writes to
 * raw devices, formatting disks, reverse shells, and a few of the same kind. Each is a check on
 * the reader's model of the line (core/shell), not a pattern on its text.
 */

/** What a command rule sees: one simple command (wrappers such as `env`, `nohup`, `timeout` removed). */
export interface CommandView {
  /** The command's name without its directory (`/bin/rm` → `rm`). */
  name: string;
  /** Its arguments, and what `xargs` hands it when that is written out on the line (`echo ~ | xargs rm -rf`). */
  args: string[];
  redirects: ReadonlyArray<{ op: string; target: string }>;
  /** Where it runs, when known (after `cd ~` it is the home folder; unknown after `cd "$dir"`). */
  cwd?: string;
  home: string;
  /** Paths that must never be deleted, moved or opened up: `/`, system folders, home, the workspace and their ancestors. */
  isProtected(path: string): boolean;
  /** The command as the reader saw it (its words, what feeds it). */
  command?: ShellCommand;
}

export interface DangerRule {
  id: string;
  /** Checks one simple command; returns the reason when it matches. */
  command?(cmd: CommandView): string | undefined;
  /** Checks the whole line as read (pipelines, functions, substitutions); returns the reason when it matches. */
  script?(script: ShellScript): string | undefined;
}

const PRIVILEGE = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0']);
/** Tests that make `find … -delete` delete only some files (a type alone does not: `-type f` is every file). */
const FIND_FILTERS = /^-(?:i?l?name|i?path|i?wholename|i?regex|[amc](?:time|min)|newer\w*|size|user|group|uid|gid|nouser|nogroup|perm|empty|links|inum|samefile|used)$/;
const MATCHES_ALL = /^(?:\*|\.\*|\*\.?\*?|\.\/\*|\.\*\/?\*?)$/;
const DEVICE = /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|loop|sr|mapper\/|mem$|kmem$|port$)/;
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'lynx', 'links', 'nc', 'ncat', 'netcat', 'socat', 'ftp', 'tftp']);

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
      const deletes = c.args.includes('-delete') || c.args.some((a, i) => /^-(?:exec|execdir|ok|okdir)$/.test(a) && /^(?:rm|rmdir|shred|unlink)$/.test(commandName(c.args[i + 1] ?? '')));
      if (!deletes) return undefined;
      // `find . -name '*.pyc' -delete` deletes what matches; without a test (or with `-name '*'`) it deletes everything.
      const filtered = c.args.some((a, i) => FIND_FILTERS.test(a) && !(/name|path|regex/.test(a) && MATCHES_ALL.test(c.args[i + 1] ?? '*')));
      const first = c.args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
      const roots = first === -1 ? c.args : c.args.slice(0, first);
      const root = (roots.length > 0 ? roots : ['.']).find((a) => c.isProtected(a));
      return !filtered && root !== undefined ? `\`find … -delete\` over ${describeTarget(root)}` : undefined;
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
      if ((c.name === 'shred' || c.name === 'cp' || c.name === 'tee') && operands(c.args).some((a) => DEVICE.test(a))) return `\`${c.name}\` onto a disk device`;
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
      if (socket && isShell(c.name) && c.args.some((a) => /^-[a-zA-Z]*i/.test(a))) return `\`${c.name} -i\` connected to a network socket (a reverse shell)`;
      if (/^(?:nc|ncat|netcat)$/.test(c.name) && c.args.some((a, i) => /^-[a-zA-Z]*[ec]$/.test(a) && c.args[i + 1] !== undefined && isShell(commandName(c.args[i + 1]!)))) return `\`${c.name} -e\` hands a shell to the network (a reverse shell)`;
      if (c.name === 'socat' && c.args.some((a) => /^(?:exec|system):.*\b(?:ba|z|k|da)?sh\b/i.test(a))) return '`socat exec:` hands a shell to the network (a reverse shell)';
      return undefined;
    },
  },
  {
    id: 'inline-code-delete',
    command: (c) => {
      const inline = c.command ? inlineCode(c.command.words, c.command.stdinText) : undefined;
      return inline && codeDeletesHomeOrRoot(inline.code) ? `the ${inline.program} code given to \`${inline.program}\` deletes the home folder or the root` : undefined;
    },
  },
  { id: 'fork-bomb', script: forkBomb },
  { id: 'pipe-to-shell', script: downloadRun },
];

/** Arguments that are not options (everything after `--` counts). */
export function operands(args: readonly string[]): string[] {
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

/** A function that calls itself twice, in a pipeline or in the background: `:(){ :|:& };:`, `bomb(){ bomb & bomb; }`. */
function forkBomb(script: ShellScript): string | undefined {
  for (const fn of script.functions) {
    const calls = fn.body.map((i) => script.commands[i]!).filter((c) => programOf(c.words).name === fn.name);
    if (calls.length >= 2 || calls.some((c) => c.background || c.pipe !== undefined)) return `a fork bomb (the function \`${fn.name}\` starts copies of itself)`;
  }
  return undefined;
}

/** A program fetched from the network, or decoded from a blob, that an interpreter runs. */
function downloadRun(script: ShellScript): string | undefined {
  const { commands } = script;
  // Piped into a later stage that reads its program from standard input: `curl … | python3`, `base64 -d | sh`.
  for (const pipeline of script.pipelines) {
    let source: ShellCommand | undefined;
    for (const stage of pipeline.stages) {
      const stageCommands = (stage ?? []).map((k) => commands[k]!);
      const runner = source && stageCommands.find((c) => readsProgramFromStdin(c));
      if (source && runner) return `${describe(source)} is piped into \`${programOf(runner.words).name}\`, which runs it`;
      source ??= stageCommands.find(producesHiddenCode);
    }
  }
  // Substituted where an interpreter takes its program: `sh <(curl …)`, `bash -c "$(curl …)"`, `sh < <(curl …)`, `eval "$(curl …)"`.
  for (const source of commands) {
    if (!producesHiddenCode(source)) continue;
    let inner: ShellCommand = source;
    while (inner.parent !== undefined) {
      const holder = commands[inner.parent]!;
      if (inner.origin === 'substitution' && takesProgramFrom(holder, inner.parentWord)) return `${describe(source)} is run by \`${programOf(holder.words).name}\``;
      inner = holder;
    }
  }
  return undefined;
}

function producesHiddenCode(c: ShellCommand): boolean {
  const { name, args } = programOf(c.words);
  if (DOWNLOADERS.has(name)) return true;
  if (/^(?:base64|base32|basenc)$/.test(name)) return args.some((a) => /^-[a-zA-Z]*[dD]$/.test(a) || a === '--decode');
  if (name === 'xxd') return args.some((a) => /^-[a-zA-Z]*r/.test(a));
  if (name === 'openssl') return args.includes('-d') || args.includes('-base64') || args[0] === 'base64';
  return name === 'uudecode';
}

function describe(c: ShellCommand): string {
  const { name } = programOf(c.words);
  return DOWNLOADERS.has(name) ? `a download (\`${name}\`)` : `a decoded blob (\`${name}\`)`;
}

function readsProgramFromStdin(c: ShellCommand): boolean {
  const interpreter = interpreterOf(c.words);
  return interpreter !== undefined && interpreter.source.kind === 'stdin' && !c.redirects.some((r) => r.op.startsWith('<'));
}

/** Whether `word` (an index into the command's words; undefined for a redirection) is where the command takes a program from. */
function takesProgramFrom(holder: ShellCommand, word: number | undefined): boolean {
  const { name, args } = programOf(holder.words);
  const offset = holder.words.length - args.length;
  if (name === 'eval' || name === 'source' || name === '.') return word === undefined || word >= offset;
  const interpreter = interpreterOf(holder.words);
  if (!interpreter) return false;
  const { source } = interpreter;
  if (word === undefined) return source.kind === 'stdin';
  const at = holder.words.length - interpreter.args.length;
  return (source.kind === 'code' || source.kind === 'file') && word === at + source.index;
}
