import * as vscode from 'vscode';

/**
 * The few members of the built-in Git extension's API (`vscode.git`, API version 1) that OpenDev
 * uses. Declared here instead of vendoring its whole git.d.ts: these have been stable since 2019.
 */
export interface GitRepository {
  readonly rootUri: vscode.Uri;
  readonly inputBox: { value: string };
  readonly state: { readonly indexChanges: readonly unknown[]; readonly workingTreeChanges: readonly unknown[] };
  /** `git diff` (`cached`: `git diff --cached`). */
  diff(cached?: boolean): Promise<string>;
}

export interface GitApi {
  readonly repositories: readonly GitRepository[];
  openRepository?(root: vscode.Uri): Promise<GitRepository | null>;
}

interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** The Git extension's API, activating it when needed; undefined when it is missing or disabled (git.enabled). */
export async function gitApi(): Promise<GitApi | undefined> {
  const extension = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!extension) return undefined;
  const exports = extension.isActive ? extension.exports : await extension.activate();
  return exports?.enabled ? exports.getAPI(1) : undefined;
}
