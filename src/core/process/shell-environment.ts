import { basename } from 'node:path';
import * as z from 'zod';
import { childProcess } from '../lazy-builtins';
import { childEnv, isSecretEnvName } from './child-env';
import { terminateGroup } from './process-group';

/**
 * The environment the user's shell sets up (PATH from nvm, pyenv, asdf, Homebrew, a venv activated
 * in .bashrc…), read once per session the way a terminal would: the user's shell starts as a login
 * and interactive shell in their home folder, runs their profile and rc files, and prints its
 * environment with `env -0`. Commands then get that environment directly (no file to source: the
 * sandbox's read-only filesystem and private temp folder need nothing from it).
 *
 * - In the home folder, never the workspace: a repository is untrusted, and cwd-dependent start-up
 *   (direnv, a `.nvmrc` hook, a prompt that runs git) must not let it shape the environment.
 * - From our own environment without secrets, and the secret names are dropped from what comes back:
 *   a profile that exports OPENAI_API_KEY does not hand it to the model's commands.
 * - A hard time limit, after which the whole group is killed and the caller falls back.
 */
export type CapturedEnvironment =
  | { ok: true; env: Record<string, string>; ms: number }
  | { ok: false; reason: string; ms: number };

export interface CaptureOptions {
  /** The shell to start (its profile is what is read). */
  shell: string;
  /** Where it starts, and its HOME. */
  home: string;
  timeoutMs: number;
  /** What the shell starts from (default process.env); secrets are taken out first. */
  base?: NodeJS.ProcessEnv;
}

/** Printed before `env -0`: whatever the profile prints comes before it and is ignored. */
const MARKER = '__OPENDEV_SHELL_ENV_7c1e__';
/** The shell's own bookkeeping: true of the capture shell, wrong for the command. */
const VOLATILE = new Set(['PWD', 'OLDPWD', 'SHLVL', '_', 'PS1', 'PS2', 'PROMPT_COMMAND']);
/** A name `env -0` printed that a command could be given (exported bash functions, `BASH_FUNC_f%%`, are not). */
const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/);
/** After the time limit's SIGTERM, how long the profile has to clean up before SIGKILL. */
const KILL_GRACE_MS = 1_000;
/** Past this the output is not an environment (a profile that prints without end): stop reading. */
const MAX_OUTPUT = 4 * 1024 * 1024;

export function captureShellEnvironment(options: CaptureOptions): Promise<CapturedEnvironment> {
  const started = Date.now();
  const ms = () => Date.now() - started;
  return new Promise((resolve) => {
    let done = false;
    let out = '';
    let err = '';
    const finish = (result: CapturedEnvironment) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    const child = childProcess().spawn(options.shell, ['-i', '-l', '-c', `command printf '%s' ${MARKER}; command env -0`], {
      cwd: options.home,
      env: childEnv({ HOME: options.home }, options.base),
      // Its own group, so the time limit reaches whatever the profile started.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => {
      // SIGTERM first: start-up scripts clean up in their EXIT traps (a SIGKILLed `pyenv rehash`
      // leaves its lock file behind, and every later shell then waits 60 s for it).
      if (child.pid !== undefined) void terminateGroup(child.pid, KILL_GRACE_MS);
      finish({ ok: false, reason: `${basename(options.shell)} did not finish starting within ${options.timeoutMs / 1000} s`, ms: ms() });
    }, options.timeoutMs);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.length > MAX_OUTPUT && child.pid !== undefined) void terminateGroup(child.pid, KILL_GRACE_MS);
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err = (err + d).slice(-2000)));
    child.on('error', (e) => finish({ ok: false, reason: `${options.shell} could not start: ${e.message}`, ms: ms() }));
    child.on('close', (code) => {
      const at = out.indexOf(MARKER);
      if (at < 0) {
        const last = err.trim().split('\n').pop() ?? '';
        finish({ ok: false, reason: `${basename(options.shell)} exited (${code}) without printing its environment${last ? `: ${last}` : ''}`, ms: ms() });
        return;
      }
      const env = parseEnvBlock(out.slice(at + MARKER.length));
      if (!env.PATH) finish({ ok: false, reason: `${basename(options.shell)} printed no PATH`, ms: ms() });
      else finish({ ok: true, env, ms: ms() });
    });
  });
}

/** `NAME=value\0…` from `env -0`, without secrets, the shell's bookkeeping and names no command can take. */
export function parseEnvBlock(block: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of block.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    const name = entry.slice(0, eq);
    if (!EnvName.safeParse(name).success || VOLATILE.has(name) || isSecretEnvName(name)) continue;
    env[name] = entry.slice(eq + 1);
  }
  return env;
}

/**
 * VS Code's `terminal.integrated.env.<os>` on top of an environment: a string value sets the
 * variable (`${env:NAME}` is that variable's value before), null removes it.
 */
export function applyTerminalEnv(env: Record<string, string>, overrides: Readonly<Record<string, string | null>>): Record<string, string> {
  const out = { ...env };
  for (const [name, value] of Object.entries(overrides)) {
    if (value === null) delete out[name];
    else out[name] = value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, ref: string) => env[ref] ?? '');
  }
  return out;
}
