import { setPriority } from 'node:os';
import { childProcess } from '../lazy-builtins';
import { childEnv } from '../process/child-env';

/** What one git command did. */
export interface GitRun {
  code: number;
  /** Raw bytes: a blob or `-z` listing stays exactly what git wrote. */
  stdout: Buffer;
  stderr: string;
  /** Killed by the time limit, the abort signal or the output cap. */
  killed: boolean;
}

export interface RunGitOptions {
  /** Where git runs (its repository is found from here unless `env` names one). */
  cwd: string;
  /** The child's whole environment; default childEnv() (no secret variables, see child-env.ts). */
  env?: NodeJS.ProcessEnv;
  /** Written to git's stdin, which is then closed (closed empty when not given). */
  input?: string | Buffer;
  /** Killed after this long (a runaway git never lives forever); default 60 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Run at the lowest CPU priority (housekeeping that must not slow the user's work). */
  lowPriority?: boolean;
  /** Killed once stdout passes this many bytes (what a mention reads must fit in memory); default: no cap. */
  maxStdoutBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
/** The exit code a shell gives a program it could not find: git is not installed (or not on PATH). */
export const GIT_NOT_FOUND = 127;
/** The exit code of a process killed with SIGKILL. */
const KILLED = 137;

/**
 * Runs `git <args>`: the one place OpenDev starts git. Never throws, not even when git is missing
 * (code GIT_NOT_FOUND) or is killed (`killed`, code 137): the caller decides what a failure means.
 * Killed with SIGKILL, since a git that hangs on a stuck file system may not heed a gentler signal.
 */
export function runGit(args: readonly string[], options: RunGitOptions): Promise<GitRun> {
  return new Promise((resolve) => {
    const child = childProcess().spawn('git', [...args], { cwd: options.cwd, env: options.env ?? childEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    if (options.lowPriority && child.pid !== undefined) {
      try {
        setPriority(child.pid, 19);
      } catch {
        // not permitted here: it runs at normal priority
      }
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let killed = false;
    const kill = () => {
      killed = true;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(kill, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    options.signal?.addEventListener('abort', kill, { once: true });
    child.stdout.on('data', (d: Buffer) => {
      out.push(d);
      outBytes += d.length;
      if (options.maxStdoutBytes !== undefined && outBytes > options.maxStdoutBytes && !killed) kill();
    });
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.stdin.on('error', () => {}); // git may exit before reading its input
    child.on('error', (e) => finish(GIT_NOT_FOUND, Buffer.from(''), `git could not start: ${e.message}`));
    child.on('close', (code) => finish(code ?? 1, Buffer.concat(out), Buffer.concat(err).toString('utf8')));
    let done = false;
    function finish(code: number, stdout: Buffer, stderr: string): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      resolve({ code: killed ? KILLED : code, stdout, stderr, killed });
    }
    child.stdin.end(options.input ?? '');
  });
}
