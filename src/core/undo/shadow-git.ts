import { childProcess } from '../lazy-builtins';
import { devNull, setPriority } from 'node:os';
import { delimiter } from 'node:path';
import { childEnv } from '../process/child-env';

/** Where a shadow-git command runs: OpenDev's own repository, the user's files as its work tree. */
export interface ShadowGitTarget {
  gitDir: string;
  workTree: string;
  /** The session's own index file, so two sessions on one project never fight over `index.lock`. */
  indexFile: string;
}

export interface GitRun {
  code: number;
  stdout: Buffer;
  stderr: string;
  /** Killed by the hard timeout or the abort signal. */
  killed: boolean;
}

export interface GitRunOptions {
  input?: string | Buffer;
  /** Killed after this long (a runaway snapshot never lives forever); default 60 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Run at the lowest CPU priority (housekeeping that must not slow the user's work). */
  lowPriority?: boolean;
  /** Object stores read besides the repository's own (a damaged store set aside); never written to. */
  alternates?: readonly string[];
}

const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * Every file git writes in the shadow repository is the user's alone (0600, folders 0700, read-only
 * objects 0400), whatever the umask: `core.sharedRepository` given as an octal mode overrides it.
 * Given on every command, not only at `init`, so a repository made before this setting is covered
 * too. It changes only the repository's own files: what a restore writes into the workspace keeps
 * the modes the user's umask gives it.
 */
const PRIVATE_REPOSITORY = ['-c', 'core.sharedRepository=0600'] as const;

/**
 * Every object a snapshot writes is on disk before the command returns, so a step's before-state
 * survives a crash or power loss that follows its first write (git leaves loose objects to the page
 * cache by default). `batch`: one flush per command, not one per object (git ≥ 2.37; older git
 * ignores it and flushes each object; before 2.36 neither setting exists and objects are written as
 * they always were).
 */
const DURABLE_OBJECTS = ['-c', 'core.fsync=loose-object', '-c', 'core.fsyncMethod=batch'] as const;

/**
 * The environment of every shadow-git command. Every inherited `GIT_*` variable goes (a `GIT_DIR`,
 * `GIT_INDEX_FILE` or `GIT_OBJECT_DIRECTORY` from the user's shell or a git hook would point git at
 * the user's repository); the user's global and system config are not read (an `autocrlf` there
 * would break byte-identical restores, an `fsmonitor` would run programs); paths are literal, so a
 * file named `*.ts` is that file and not a pattern. The base has no secret variables (child-env.ts).
 */
export function shadowGitEnv(target: ShadowGitTarget, base: NodeJS.ProcessEnv = childEnv()): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) if (!key.startsWith('GIT_')) env[key] = value;
  return {
    ...env,
    GIT_DIR: target.gitDir,
    GIT_WORK_TREE: target.workTree,
    GIT_INDEX_FILE: target.indexFile,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    GIT_LITERAL_PATHSPECS: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'OpenDev',
    GIT_AUTHOR_EMAIL: 'opendev@localhost',
    GIT_COMMITTER_NAME: 'OpenDev',
    GIT_COMMITTER_EMAIL: 'opendev@localhost',
    LC_ALL: 'C',
  };
}

/** Runs `git <args>` against the shadow repository; never throws for a non-zero exit (the caller decides). */
export function runShadowGit(target: ShadowGitTarget, args: readonly string[], options: GitRunOptions = {}): Promise<GitRun> {
  return new Promise((resolve) => {
    const env = shadowGitEnv(target);
    if (options.alternates?.length) env.GIT_ALTERNATE_OBJECT_DIRECTORIES = options.alternates.join(delimiter);
    const child = childProcess().spawn('git', [...PRIVATE_REPOSITORY, ...DURABLE_OBJECTS, ...args], { cwd: target.workTree, env, stdio: ['pipe', 'pipe', 'pipe'] });
    if (options.lowPriority && child.pid !== undefined) {
      try {
        setPriority(child.pid, 19);
      } catch {
        // not permitted here: it runs at normal priority
      }
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let killed = false;
    const kill = () => {
      killed = true;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(kill, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    options.signal?.addEventListener('abort', kill, { once: true });
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.stdin.on('error', () => {}); // git may exit before reading its input
    child.on('error', (e) => finish(127, Buffer.from(''), `git could not start: ${e.message}`));
    child.on('close', (code) => finish(code ?? 1, Buffer.concat(out), Buffer.concat(err).toString('utf8')));
    let done = false;
    function finish(code: number, stdout: Buffer, stderr: string): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      resolve({ code: killed ? 137 : code, stdout, stderr, killed });
    }
    child.stdin.end(options.input ?? '');
  });
}

/** NUL-separated git output (`-z`) as strings. */
export function splitNul(buffer: Buffer): string[] {
  return buffer.toString('utf8').split('\0').filter((s) => s.length > 0);
}

/** A failed git command as an Error with its stderr's first lines. */
export class ShadowGitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly run: GitRun,
  ) {
    super(`git ${args[0] ?? ''} ${run.killed ? 'was stopped (time limit)' : `failed (exit ${run.code})`}: ${run.stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
    this.name = 'ShadowGitError';
  }
}
