import * as vscode from 'vscode';
import type { CapabilityCatalog } from '../../core/llm/capabilities/catalog';
import { writeCommitMessage } from '../../core/commands/commit-message-writer';
import { ModelRoles } from '../../core/llm/model-roles';
import { readProviderSettings } from '../settings';
import { gitApi, type GitApi, type GitRepository } from './git-api';

export const WRITE_COMMIT_MESSAGE = 'opendev.writeCommitMessage';

/**
 * "Write Commit Message with OpenDev" (the Source Control title button and the palette): the
 * compact model (the main model when none is set) writes a message for the staged changes, or for
 * all changes when nothing is staged, into the repository's commit box. The user reviews and
 * commits it themselves: nothing is committed here.
 */
export function registerWriteCommitMessage(context: vscode.ExtensionContext, secrets: vscode.SecretStorage, catalog: CapabilityCatalog): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(WRITE_COMMIT_MESSAGE, async (target?: unknown) => {
      const git = await gitApi();
      if (!git) {
        void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: the Git extension is not available (or git.enabled is off), so there is no commit box to write into.'));
        return;
      }
      const repository = await pickRepository(git, target);
      if (!repository) return;
      await vscode.window.withProgress({ location: vscode.ProgressLocation.SourceControl, title: vscode.l10n.t('OpenDev is writing a commit message…'), cancellable: false }, () =>
        writeInto(repository, secrets, catalog),
      );
    }),
  );
}

async function writeInto(repository: GitRepository, secrets: vscode.SecretStorage, catalog: CapabilityCatalog): Promise<void> {
  // Staged changes are what the commit will hold; with none staged VS Code commits everything (smart commit).
  const staged = await repository.diff(true);
  const diff = staged.trim() ? staged : await repository.diff(false);
  if (!diff.trim()) {
    void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: there are no changes to describe (new files must be staged to be seen).'));
    return;
  }
  const outcome = await readProviderSettings(secrets);
  if (!outcome.ok) {
    void vscode.window.showErrorMessage(vscode.l10n.t('OpenDev: {0}', outcome.problem));
    return;
  }
  try {
    const model = new ModelRoles(outcome.roles, catalog).forRole('compact')!;
    const message = await writeCommitMessage(model, { diff, draft: repository.inputBox.value }, new AbortController().signal);
    if (!message) {
      void vscode.window.showWarningMessage(vscode.l10n.t('OpenDev: the model answered with an empty commit message; the commit box is unchanged.'));
      return;
    }
    repository.inputBox.value = message;
  } catch (err) {
    // A missing key, an unreachable provider: said in words, the commit box left as it was.
    void vscode.window.showErrorMessage(vscode.l10n.t('OpenDev could not write a commit message: {0}', (err as Error).message));
  }
}

/**
 * The repository the button was pressed on (the Source Control title passes its SourceControl,
 * which has `rootUri`), else the only one, else the one holding the active editor's file, else
 * the user picks.
 */
async function pickRepository(git: GitApi, target: unknown): Promise<GitRepository | undefined> {
  const repos = git.repositories;
  const root = rootUriOf(target);
  if (root) {
    const match = repos.find((r) => r.rootUri.toString() === root.toString());
    if (match) return match;
  }
  if (repos.length === 1) return repos[0];
  const active = vscode.window.activeTextEditor?.document.uri.fsPath;
  const holding = active
    ? repos.filter((r) => active.startsWith(r.rootUri.fsPath + '/') || active.startsWith(r.rootUri.fsPath + '\\')).sort((a, b) => b.rootUri.fsPath.length - a.rootUri.fsPath.length)[0]
    : undefined;
  if (holding) return holding;
  if (repos.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: no git repository is open; Write Commit Message works on a repository in the Source Control view.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    repos.map((r) => ({ label: vscode.workspace.asRelativePath(r.rootUri, true) || r.rootUri.fsPath, repository: r })),
    { placeHolder: vscode.l10n.t('Which repository should OpenDev write a commit message for?') },
  );
  return picked?.repository;
}

function rootUriOf(target: unknown): vscode.Uri | undefined {
  if (target instanceof vscode.Uri) return target;
  const root = (target as { rootUri?: unknown } | undefined)?.rootUri;
  return root instanceof vscode.Uri ? root : undefined;
}
