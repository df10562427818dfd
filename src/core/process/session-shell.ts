import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { chooseCommandShell, commandArgs, type CommandShell } from './command-shell';
import { applyTerminalEnv, captureShellEnvironment } from './shell-environment';

/** What the host knows about the user's shell. */
export interface ShellSettings {
  /** `$SHELL` (the CLI), VS Code's default terminal profile's program or `vscode.env.shell`. */
  userShell?: string;
  /** VS Code's `terminal.integrated.env.<os>` (the user's own; a folder's only once trusted). */
  terminalEnv?: Readonly<Record<string, string | null>>;
  /** false: the profile is not read (commands get OpenDev's own environment). */
  readProfile?: boolean;
  /** The capture's hard limit. */
  timeoutMs?: number;
  /** Where the capture starts (tests give a fake one). */
  home?: string;
  /** Tests: another platform's decision, another environment to start from. */
  platform?: NodeJS.Platform;
  base?: NodeJS.ProcessEnv;
}

/** How commands run, once the session's environment is known. */
export interface ResolvedShell {
  file: string;
  family: CommandShell['family'];
  args(line: string): string[];
  /** The environment commands start from (childEnv still takes the secrets out of it). */
  env: NodeJS.ProcessEnv;
}

/**
 * A slow profile fits (nvm's takes ~0.5 s, conda's ~1 s; pyenv init + virtualenv-init + rehash took
 * 6.8 s on a loaded test machine); a hung one costs the session's first command this much, once.
 */
export const DEFAULT_CAPTURE_TIMEOUT_MS = 10_000;

/**
 * The shell of one session: which program runs commands (decided at once, from the platform and
 * the user's shell), and the environment their profile sets up, captured once, when the first
 * command needs it (not at agent start). A failed or hung capture falls back to OpenDev's own
 * environment, told once as a notice (the chat, the terminal, stderr in the CLI); the command's
 * result stays what the command printed.
 */
export class SessionShell {
  readonly choice: CommandShell;
  /** How many times the profile was read (tests: once per session). */
  captures = 0;
  /** The capture's time, or why it fell back: for /config, the bench and the notice. */
  outcome: { ms: number; reason?: string } | undefined;
  private pending: Promise<ResolvedShell> | undefined;

  constructor(private readonly settings: ShellSettings = {}, private readonly onNotice?: (text: string) => void) {
    const platform = settings.platform ?? process.platform;
    const base = settings.base ?? process.env;
    this.choice = chooseCommandShell({ platform, ...(settings.userShell ? { userShell: settings.userShell } : {}), exists: existsSync, env: base });
  }

  /** Commands need no approval for the shell itself only when the judge can read its lines. */
  get judgeable(): boolean {
    return this.choice.family === 'posix';
  }

  resolve(): Promise<ResolvedShell> {
    this.pending ??= this.capture();
    return this.pending;
  }

  private async capture(): Promise<ResolvedShell> {
    const base = this.settings.base ?? process.env;
    const shell = this.choice;
    let env: Record<string, string> = Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
    if (shell.profileShell && this.settings.readProfile !== false) {
      this.captures++;
      const captured = await captureShellEnvironment({ shell: shell.profileShell, home: this.settings.home ?? homedir(), timeoutMs: this.settings.timeoutMs ?? DEFAULT_CAPTURE_TIMEOUT_MS, base });
      this.outcome = captured.ok ? { ms: captured.ms } : { ms: captured.ms, reason: captured.reason };
      if (captured.ok) env = captured.env;
      else {
        this.onNotice?.(`Your shell profile could not be read (${captured.reason}): commands run in ${shell.file} with OpenDev's own environment, so a PATH your profile sets up (nvm, pyenv…) is missing.`);
      }
    }
    if (this.settings.terminalEnv) env = applyTerminalEnv(env, this.settings.terminalEnv);
    return { file: shell.file, family: shell.family, args: (line) => commandArgs(shell, line), env };
  }
}
