import { programOf } from './command-program';

/**
 * Programs that run code given to them, and where each takes that code from: an argument
 * (`bash -c`, `python3 -c`, `node -e`), a script file, or standard input (`sh`, `bash -s`,
 * `python3 -`, `perl` with nothing else). What the danger gate needs to see a download or a
 * decoded blob being run, and the reader to read the scripts a shell is given.
 */
export type ProgramSource =
  | { kind: 'stdin' }
  | { kind: 'code'; index: number }
  | { kind: 'file'; index: number }
  /** A module or library (`python3 -m json.tool`): code it already has. */
  | { kind: 'module' };

export type InterpreterFamily = 'shell' | 'python' | 'node' | 'perl' | 'ruby' | 'php' | 'lua' | 'powershell' | 'osascript';

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'busybox', 'yash', 'tcsh', 'csh']);

export function isShell(name: string): boolean {
  return SHELLS.has(name);
}

/** The family of an interpreter by its program name (`python3.12` is python), or undefined. */
export function interpreterFamily(name: string): InterpreterFamily | undefined {
  if (SHELLS.has(name)) return 'shell';
  if (/^(?:python\d*(?:\.\d+)?|pypy\d*)$/.test(name)) return 'python';
  if (name === 'node' || name === 'nodejs' || name === 'deno' || name === 'bun') return 'node';
  if (/^perl\d*(?:\.\d+)*$/.test(name)) return 'perl';
  if (/^(?:ruby\d*(?:\.\d+)*|jruby)$/.test(name)) return 'ruby';
  if (/^php\d*(?:\.\d+)*$/.test(name)) return 'php';
  if (/^(?:lua\d*(?:\.\d+)*|luajit)$/.test(name)) return 'lua';
  if (name === 'pwsh' || name === 'powershell') return 'powershell';
  if (name === 'osascript') return 'osascript';
  return undefined;
}

interface Options {
  /** Options that take the code itself as their value. */
  code: RegExp;
  /** Options that take some other value (skipped with it). */
  valued: RegExp;
  /** Options that make it read the program from standard input. */
  stdin?: RegExp;
  /** Options that name a module to run. */
  module?: RegExp;
  /** Short options that can be grouped (`-lc`, `-ne`): the letters that take the code. */
  groupedCode?: RegExp;
}

const OPTIONS: Record<InterpreterFamily, Options> = {
  shell: { code: /^-c$/, valued: /^(?:[-+]o|-O|--rcfile|--init-file)$/, stdin: /^-[a-zA-Z]*s[a-zA-Z]*$/, groupedCode: /^-[a-zA-Z]*c[a-zA-Z]*$/ },
  python: { code: /^-c$/, valued: /^-[WXQ]$/, module: /^-m$/, groupedCode: /^-[a-zA-Z]*c$/ },
  node: { code: /^(?:-e|--eval|-p|--print|eval)$/, valued: /^(?:-r|--require|--import|--loader|--experimental-loader|-C|--conditions)$/, stdin: /^--input-type=/ },
  perl: { code: /^-[EeI]$|^-[a-zA-Z]*[eE]$/, valued: /^-[IMmx]$/, groupedCode: /^-[a-zA-Z]*[eE]$/ },
  ruby: { code: /^-e$|^-[a-zA-Z]*e$/, valued: /^-[rICx]$/, groupedCode: /^-[a-zA-Z]*e$/ },
  php: { code: /^-[rRFBE]$/, valued: /^-[cdz]$/ },
  lua: { code: /^-e$/, valued: /^-l$/ },
  powershell: { code: /^-(?:c|command|encodedcommand|e|ec|enc)$/i, valued: /^-(?:executionpolicy|ex|ep|workingdirectory|wd|configurationname)$/i },
  osascript: { code: /^-e$/, valued: /^-[lsi]$/ },
};

/**
 * Where an interpreter takes its program from, given its arguments (after the program name). A
 * program that reads from standard input when nothing else is named, as all of these do, reads
 * it from a pipe feeding it.
 */
export function programSource(family: InterpreterFamily, args: readonly string[]): ProgramSource {
  const o = OPTIONS[family];
  let stdin = false;
  let code: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-') return { kind: 'stdin' };
    // After `--`, `sh -s -- args` still reads its program from standard input: the rest are its arguments.
    if (a === '--') return code !== undefined ? { kind: 'code', index: i + 1 } : i + 1 < args.length && !(family === 'shell' && stdin) ? { kind: 'file', index: i + 1 } : { kind: 'stdin' };
    if (o.module?.test(a)) return { kind: 'module' };
    if (/^-[a-zA-Z]*m$/.test(a) && family === 'python') return { kind: 'module' };
    if (o.code.test(a) || o.groupedCode?.test(a)) {
      // `bash -c 'script' name args`: the script is the first word after the options.
      code ??= family === 'shell' ? firstOperand(args, i + 1, o) : i + 1;
      if (family !== 'shell') i++;
      continue;
    }
    if (o.stdin?.test(a)) {
      stdin = true;
      continue;
    }
    if (o.valued.test(a)) {
      i++;
      continue;
    }
    if (a.startsWith('-') || (family === 'shell' && a.startsWith('+'))) continue;
    if (code !== undefined) break;
    if (family === 'shell' && stdin) return { kind: 'stdin' };
    if (family === 'node' && (a === 'eval' || a === 'run' || a === 'x' || a === 'repl')) {
      if (a === 'eval' && args[i + 1] !== undefined) return { kind: 'code', index: i + 1 };
      continue;
    }
    if (a === '/dev/stdin' || a === '/proc/self/fd/0') return { kind: 'stdin' };
    return { kind: 'file', index: i };
  }
  if (code !== undefined && code < args.length) return { kind: 'code', index: code };
  return { kind: 'stdin' };
}

function firstOperand(args: readonly string[], from: number, o: Options): number {
  for (let i = from; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return i + 1;
    if (o.valued.test(a)) i++;
    else if (!a.startsWith('-') && !a.startsWith('+')) return i;
  }
  return args.length;
}

/** The interpreter a simple command runs (past wrappers; `busybox sh` is sh) and where its program comes from. */
export function interpreterOf(words: readonly string[]): { family: InterpreterFamily; name: string; args: string[]; source: ProgramSource } | undefined {
  let { name, args } = programOf(words);
  if (name === 'busybox' && args[0] !== undefined && SHELLS.has(args[0])) [name, args] = [args[0], args.slice(1)];
  const family = interpreterFamily(name);
  return family ? { family, name, args, source: programSource(family, args) } : undefined;
}
