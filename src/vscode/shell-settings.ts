import { existsSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod';
import type { ShellSettings } from '../core/process/session-shell';

/** VS Code's name for this platform in `terminal.integrated.*.<os>`. */
const OS = process.platform === 'win32' ? 'windows' : process.platform === 'darwin' ? 'osx' : 'linux';

const TerminalEnv = z.record(z.string(), z.string().nullable());
const Profile = z.object({ path: z.union([z.string(), z.array(z.string())]).optional(), source: z.string().optional() });
const Profiles = z.record(z.string(), Profile.nullable());

/**
 * The user's terminal shell, `terminal.integrated.env.<os>` and whether to read their profile
 * (`opendev.shell.readProfile`), for the commands the agent runs.
 * A folder's own values (.vscode/settings.json) count only once the folder is trusted: before, a
 * repository could name the program that reads the profile, or put its own folder first on PATH.
 */
export function readShellSettings(projectTrusted: boolean): ShellSettings {
  const terminal = vscode.workspace.getConfiguration('terminal.integrated');
  const env = TerminalEnv.safeParse({ ...scoped(terminal, `env.${OS}`, projectTrusted, 'global'), ...(projectTrusted ? scoped(terminal, `env.${OS}`, true, 'workspace') : {}) });
  const userShell = defaultProfileShell(terminal, projectTrusted) ?? (projectTrusted ? vscode.env.shell : undefined) ?? process.env.SHELL;
  // A machine-scoped setting: only the user's own value counts, never a workspace's.
  const readProfile = vscode.workspace.getConfiguration('opendev').get<boolean>('shell.readProfile', true) !== false;
  return {
    ...(userShell ? { userShell } : {}),
    ...(env.success && Object.keys(env.data).length > 0 ? { terminalEnv: env.data } : {}),
    ...(readProfile ? {} : { readProfile: false }),
  };
}

function scoped(config: vscode.WorkspaceConfiguration, key: string, trusted: boolean, scope: 'global' | 'workspace'): object {
  const seen = config.inspect(key);
  if (scope === 'global') return (seen?.globalValue as object | undefined) ?? {};
  return trusted ? { ...(seen?.workspaceValue as object | undefined), ...(seen?.workspaceFolderValue as object | undefined) } : {};
}

/** The program of `terminal.integrated.defaultProfile.<os>` (the user's, or the folder's once trusted). */
function defaultProfileShell(terminal: vscode.WorkspaceConfiguration, trusted: boolean): string | undefined {
  const seen = terminal.inspect<string>(`defaultProfile.${OS}`);
  const name = (trusted ? seen?.workspaceFolderValue ?? seen?.workspaceValue : undefined) ?? seen?.globalValue;
  if (!name) return undefined;
  const profilesSeen = terminal.inspect(`profiles.${OS}`);
  const profiles = Profiles.safeParse({ ...(profilesSeen?.defaultValue as object | undefined), ...(profilesSeen?.globalValue as object | undefined), ...(trusted ? (profilesSeen?.workspaceValue as object | undefined) : {}) });
  const profile = profiles.success ? profiles.data[name] : undefined;
  if (!profile) return undefined;
  if (profile.source === 'PowerShell') return 'powershell.exe';
  const paths = typeof profile.path === 'string' ? [profile.path] : profile.path ?? [];
  return paths.map(onPath).find((p): p is string => p !== undefined);
}

/** An absolute path as it is; a bare name looked up on PATH (VS Code's built-in profiles say `bash`). */
function onPath(program: string): string | undefined {
  if (isAbsolute(program)) return existsSync(program) ? program : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const full = join(dir, program);
    if (dir && existsSync(full)) return full;
  }
  return undefined;
}
