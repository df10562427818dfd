import { basename, win32 } from 'node:path';

/**
 * Which shell runs the model's command lines, and which one reads the user's profile. The model
 * writes POSIX shell, and the command judge (core/safety) reads lines with a POSIX shell reader, so
 * a line must run in a shell that reads it the same way:
 *
 * - POSIX, the user's shell is bash, zsh, ksh, dash or sh: commands run in it, and its login +
 *   interactive start-up (profile and rc files) is what the environment is captured from.
 * - POSIX, any other shell (fish, nushell, PowerShell, xonsh, tcsh…): commands run in bash (sh
 *   without bash), which is what the model writes and the judge reads. The environment is still
 *   captured from fish (it runs `env` like any shell); from the others, whose flags and start-up
 *   differ, bash's login + interactive start-up reads the profile instead.
 * - Windows with Git Bash: commands run in its bash (the judge reads them right); the environment
 *   is the one VS Code or the terminal gave us (Windows keeps PATH in the registry, not a profile).
 * - Windows without bash: commands run in PowerShell (the user's default profile says so) or
 *   cmd.exe. The POSIX reader cannot judge those lines, so no command runs without a person's yes
 *   (`foreign`: the approval step asks every time, at every level).
 */
export type ShellFamily = 'posix' | 'powershell' | 'cmd';

export interface CommandShell {
  /** The program that runs command lines. */
  file: string;
  family: ShellFamily;
  /** The shell whose start-up sets up the environment (login + interactive); absent: nothing is captured. */
  profileShell?: string;
  /** Why this shell, for the notice and /config (one sentence). */
  why: string;
}

export interface ShellChoiceInput {
  platform: NodeJS.Platform;
  /** The user's shell: `$SHELL`, or VS Code's default terminal profile's program. */
  userShell?: string;
  exists: (path: string) => boolean;
  /** `ComSpec`, `ProgramFiles`… on Windows. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Shells that read a POSIX line the way the judge does (zsh: close enough for what a model writes). */
const POSIX_SHELLS = new Set(['bash', 'zsh', 'ksh', 'mksh', 'dash', 'sh']);
/** Non-POSIX shells that still start up with `-i -l -c` and run `env` like a POSIX one. */
const CAPTURES_LIKE_POSIX = new Set(['fish']);
const BASH_PATHS = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash', '/opt/homebrew/bin/bash'];

export function chooseCommandShell(input: ShellChoiceInput): CommandShell {
  if (input.platform === 'win32') return windowsShell(input);
  const bash = BASH_PATHS.find((p) => input.exists(p));
  const fallback = bash ?? '/bin/sh';
  const user = input.userShell?.trim();
  if (!user || !input.exists(user)) {
    return { file: fallback, family: 'posix', profileShell: fallback, why: user ? `${user} was not found, so commands run in ${fallback}` : `no login shell is set ($SHELL), so commands run in ${fallback}` };
  }
  const name = basename(user);
  if (POSIX_SHELLS.has(name)) return { file: user, family: 'posix', profileShell: user, why: `commands run in your shell, ${user}` };
  const profileShell = CAPTURES_LIKE_POSIX.has(name) ? user : fallback;
  return {
    file: fallback,
    family: 'posix',
    profileShell,
    why: `your shell is ${name}, but the model writes POSIX shell and OpenDev judges commands as such, so they run in ${fallback} with the environment ${profileShell === user ? `your ${name} profile` : `${basename(fallback)}'s profile`} sets up`,
  };
}

function windowsShell(input: ShellChoiceInput): CommandShell {
  const env = input.env ?? {};
  const user = input.userShell?.trim();
  const gitBash = [
    user && /bash(?:\.exe)?$/i.test(user) ? user : undefined,
    ...[env.ProgramFiles, env['ProgramFiles(x86)'], env.LOCALAPPDATA && win32.join(env.LOCALAPPDATA, 'Programs')].filter((d): d is string => !!d).map((d) => win32.join(d, 'Git', 'bin', 'bash.exe')),
  ].find((p): p is string => !!p && input.exists(p));
  if (gitBash) return { file: gitBash, family: 'posix', why: `commands run in Git Bash (${gitBash}), which reads them as the model writes them` };
  if (user && /(?:pwsh|powershell)(?:\.exe)?$/i.test(user)) {
    return { file: user, family: 'powershell', why: 'commands run in PowerShell, whose lines OpenDev cannot judge, so each one asks you first (install Git for Windows to have them judged)' };
  }
  const cmd = env.ComSpec ?? 'cmd.exe';
  return { file: cmd, family: 'cmd', why: 'commands run in cmd.exe, whose lines OpenDev cannot judge, so each one asks you first (install Git for Windows to have them judged)' };
}

/** The arguments that make `shell` run one command line. */
export function commandArgs(shell: Pick<CommandShell, 'file' | 'family'>, line: string): string[] {
  if (shell.family === 'cmd') return ['/d', '/s', '/c', line];
  if (shell.family === 'powershell') return ['-NoLogo', '-NonInteractive', '-Command', line];
  return ['-c', line];
}
