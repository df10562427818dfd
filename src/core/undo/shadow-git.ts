import { devNull } from 'node:os';
import { delimiter } from 'node:path';
import { runGit, type GitRun, type RunGitOptions } from '../git/run-git';
import { childEnv } from '../process/child-env';

/** Where a shadow-git command runs: OpenDev's own repository, the user's files as its work tree. */
export interface ShadowGitTarget {
  gitDir: string;
  workTree: string;
  /** The session's own index file, so two sessions on one project never fight over `index.lock`. */
  indexFile: string;
}

export interface GitRunOptions extends Omit<RunGitOptions, 'cwd' | 'env' | 'maxStdoutBytes'> {
  /** Object stores read besides the repository's own (a damaged store set aside); never written to. */
  alternates?: readonly string[];
}

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
  const { alternates, ...run } = options;
  const env = shadowGitEnv(target);
  if (alternates?.length) env.GIT_ALTERNATE_OBJECT_DIRECTORIES = alternates.join(delimiter);
  return runGit([...PRIVATE_REPOSITORY, ...DURABLE_OBJECTS, ...args], { ...run, cwd: target.workTree, env });
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
