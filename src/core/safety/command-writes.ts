import { programOf } from '../process/command-program';

/**
 * A file a command writes: a redirection (`>`, `>>`, `&>`…), a `tee` operand, `find -fprint`, or a
 * target of the program itself (`cp`'s destination, `sed -i`'s files, `rm`'s operands, `tar -x`'s folder).
 */
export interface FileWrite {
  target: string;
  via: 'redirect' | 'tee' | 'find' | 'program';
}

/**
 * The files a simple command writes, deletes or changes: its output redirections (not descriptor
 * copies or /dev/null), `tee` operands, `find -fprint` targets, and the targets of programs that
 * write what they are given (`cp`'s destination, `sed -i`'s files, `tar -x`'s folder, `dd of=`…).
 * The workspace boundary checks every one; the approval level and allow rules treat only the
 * output ones (redirections, tee, -fprint) as writes that need approving by themselves.
 */
const DEV_SINKS = /^\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)$/;

export function commandWrites(words: readonly string[], redirects: ReadonlyArray<{ op: string; target: string }>): FileWrite[] {
  const writes: FileWrite[] = [];
  for (const r of redirects) {
    if (!r.op.includes('>') || r.target.startsWith('&') || DEV_SINKS.test(r.target)) continue;
    writes.push({ target: r.target, via: 'redirect' });
  }
  const { name, args } = programOf(words);
  if (name === 'tee') for (const a of operands(args, NO_VALUE)) if (!DEV_SINKS.test(a)) writes.push({ target: a, via: 'tee' });
  if (name === 'find') {
    args.forEach((a, j) => {
      if (/^-(?:fprint0?|fprintf|fls)$/.test(a) && args[j + 1] !== undefined) writes.push({ target: args[j + 1]!, via: 'find' });
    });
  }
  for (const target of programTargets(name, args)) if (!DEV_SINKS.test(target)) writes.push({ target, via: 'program' });
  return writes;
}

const NO_VALUE = /^$/;

/** Arguments that are not options, skipping the values of `valued` options (everything after `--` counts). */
function operands(args: readonly string[], valued: RegExp): string[] {
  const out: string[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (options && a === '--') options = false;
    else if (options && a.startsWith('-') && a !== '-') {
      if (valued.test(a)) i++;
    } else out.push(a);
  }
  return out;
}

/** The value of `-o FILE`, `-oFILE`, `--output=FILE`, `--output FILE` style options. */
function optionValues(args: readonly string[], short: string | undefined, long: string | undefined): string[] {
  const out: string[] = [];
  args.forEach((a, i) => {
    if (short && a === `-${short}` && args[i + 1] !== undefined) out.push(args[i + 1]!);
    else if (short && a.length > 2 && a.startsWith(`-${short}`) && !a.startsWith('--')) out.push(a.slice(2));
    else if (long && a.startsWith(`--${long}=`)) out.push(a.slice(long.length + 3));
    else if (long && a === `--${long}` && args[i + 1] !== undefined) out.push(args[i + 1]!);
  });
  return out;
}

function programTargets(name: string, args: readonly string[]): string[] {
  switch (name) {
    case 'cp':
    case 'mv':
    case 'ln':
    case 'install': {
      const valued = name === 'install' ? /^-[mogSt]$|^--(?:mode|owner|group|suffix|target-directory)$/ : /^-[tS]$|^--(?:target-directory|suffix)$/;
      const files = operands(args, valued);
      const directory = optionValues(args, 't', 'target-directory');
      if (name === 'install' && args.some((a) => a === '-d' || a === '--directory')) return files;
      const sources = directory.length > 0 ? files : files.slice(0, -1);
      const target = directory.length > 0 ? directory : files.length >= 2 ? [files[files.length - 1]!] : name === 'ln' ? ['.'] : [];
      // A move takes its sources away as well.
      return name === 'mv' ? [...target, ...sources] : target;
    }
    case 'rsync': {
      const files = operands(args, /^-[eT]$|^--(?:rsh|temp-dir|exclude|include|filter)$/);
      const dest = files[files.length - 1];
      return files.length >= 2 && dest !== undefined && !/^[^/]*:/.test(dest) ? [dest] : [];
    }
    case 'rm':
    case 'rmdir':
    case 'unlink':
    case 'shred':
    case 'touch':
    case 'mkdir':
    case 'mkfifo':
    case 'mknod':
      return operands(args, /^-[mrdtZ]$|^--(?:mode|reference|date|time)$/);
    case 'truncate':
      return operands(args, /^-[sr]$|^--(?:size|reference)$/);
    case 'chmod':
    case 'chown':
    case 'chgrp': {
      const files = operands(args, NO_VALUE);
      return args.some((a) => a.startsWith('--reference')) ? files : files.slice(1);
    }
    case 'sed':
    case 'perl': {
      const inPlace = args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'));
      if (!inPlace) return [];
      const scripted = args.some((a) => /^-[a-zA-Z]*[eEf]$/.test(a) || a.startsWith('--expression') || a.startsWith('--file'));
      const files = operands(args, /^-[a-zA-Z]*[eEfl]$|^--(?:expression|file|line-length)$/);
      return scripted ? files : files.slice(1);
    }
    case 'sort':
      return optionValues(args, 'o', 'output');
    case 'dd':
      return args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
    case 'tar':
      return tarTargets(args);
    case 'unzip': {
      const dir = optionValues(args, 'd', undefined);
      return dir.length > 0 ? dir : ['.'];
    }
    case 'curl':
      return [...optionValues(args, 'o', 'output'), ...optionValues(args, undefined, 'output-dir'), ...(args.some((a) => /^-[a-zA-Z]*O[a-zA-Z]*$/.test(a) || a === '--remote-name') ? ['.'] : [])];
    case 'wget': {
      const file = optionValues(args, 'O', 'output-document').filter((f) => f !== '-');
      const dir = optionValues(args, 'P', 'directory-prefix');
      return file.length > 0 || args.some((a) => a === '-O' || a === '-O-') ? [...file, ...dir] : [...dir, ...(dir.length ? [] : ['.'])];
    }
    case 'git':
      return gitTargets(args);
    case 'patch':
      return [...optionValues(args, 'o', 'output'), ...(optionValues(args, 'o', 'output').length ? [] : operands(args, /^-[pidDoFrBVYz]$/).slice(0, 1)), '.'];
    default:
      return [];
  }
}

/** `tar -x` writes its folder (`-C dir`, default here); `tar -c`/`-r`/`-u` write the archive. */
function tarTargets(args: readonly string[]): string[] {
  const first = args[0] ?? '';
  const cluster = /^[a-zA-Z]+$/.test(first) ? first : '';
  const flags = [cluster, ...args.filter((a) => /^-[a-zA-Z]+$/.test(a))].join('');
  const extract = /x/.test(flags) || args.some((a) => a === '--extract' || a === '--get');
  const create = /[cru]/.test(flags) || args.some((a) => a === '--create' || a === '--append' || a === '--update');
  const out: string[] = [];
  if (extract) {
    const dir = optionValues(args, 'C', 'directory');
    out.push(...(dir.length > 0 ? dir : ['.']));
  }
  if (create) {
    let file = optionValues(args, undefined, 'file');
    if (file.length === 0) {
      // `-f FILE`, `-czf FILE`, or the old style `tar czf FILE …`.
      const at = args.findIndex((a, i) => (i === 0 && cluster.includes('f')) || /^-[a-zA-Z]*f$/.test(a));
      if (at !== -1 && args[at + 1] !== undefined) file = [args[at + 1]!];
    }
    out.push(...file.filter((f) => f !== '-'));
  }
  return out;
}

/** `--output=FILE` (diff, log, format-patch), `format-patch -o DIR`, `archive -o FILE`, `clone URL DIR`. */
function gitTargets(args: readonly string[]): string[] {
  const out = optionValues(args, undefined, 'output');
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += /^-[Cc]$|^--(?:git-dir|work-tree|namespace)$/.test(args[i]!) ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === 'format-patch' || sub === 'archive') out.push(...optionValues(rest, 'o', 'output-directory'));
  if (sub === 'clone') {
    const files = operands(rest, /^-[bcjou]$|^--(?:branch|config|depth|origin|upload-pack|reference|separate-git-dir|template|jobs)$/);
    if (files.length >= 2) out.push(files[files.length - 1]!);
  }
  return [...new Set(out)];
}
