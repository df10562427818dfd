import * as vscode from 'vscode';
import { playbookPath, PlaybookStore } from '../core/memory/playbook/playbook-store';
import type { ChatController } from './chat-controller';
import type { ChatFolder } from './chat-folder';
import type { ChatViewProvider } from './chat-view-provider';
import { showSessionHistory } from './session-picker';

/** Commands whose feature lands later: they exist in the palette and say so honestly. */
const NOT_YET_AVAILABLE: Record<string, string> = {};

export function registerCommands(
  context: vscode.ExtensionContext,
  chat: ChatController,
  view: ChatViewProvider,
  folder: ChatFolder,
): void {
  const register = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, run));

  register('opendev.newChat', async () => {
    folder.release(); // the next conversation follows the active editor's folder again
    chat.newChat();
    await view.reveal();
  });
  register('opendev.stop', () => chat.stop());
  // The same /compact as typed in the chat: its outcome (or why it cannot run now) shows there.
  register('opendev.compact', async () => {
    await view.reveal();
    await chat.send('/compact');
  });
  // Undo Last Step is /undo typed in the chat: what was undone (or why nothing was) shows there.
  register('opendev.undo', async () => {
    await view.reveal();
    await chat.send('/undo');
  });
  // Show Command Sandbox is /sandbox typed in the chat: where commands run, the policy, what it blocked.
  register('opendev.showSandbox', async () => {
    await view.reveal();
    await chat.send('/sandbox');
  });
  // The project's sessions (the CLI's too); the chosen one continues in the chat.
  register('opendev.showSessions', (id?: unknown) => showSessionHistory(chat, () => view.reveal(), id));
  // The same sessions in the chat's own history view (searchable, resumes in place): the title-bar button.
  register('opendev.showHistory', () => view.showHistory());
  // Set API Key, Select Provider and Select Model: setup/provider-setup.ts.
  register('opendev.switchMode', () => {
    const mode = chat.toggleMode();
    // The chat view shows the mode; the status bar says it too when the view is not in sight.
    vscode.window.setStatusBarMessage(mode === 'plan' ? vscode.l10n.t('OpenDev: Plan mode: the agent plans before it changes anything') : vscode.l10n.t('OpenDev: Normal mode'), 4000);
  });
  register('opendev.openPlaybook', () => openPlaybook(folder.current));
  // Initialize Project is /init typed in the chat: the question before replacing OPENDEV.md and the subagent's run show there.
  register('opendev.init', async () => {
    if (!vscode.workspace.workspaceFolders?.length) {
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: open a folder first; Initialize Project writes OPENDEV.md into it.'));
      return;
    }
    await view.reveal();
    await chat.send('/init');
  });
  for (const [id, feature] of Object.entries(NOT_YET_AVAILABLE)) {
    register(id, () => {
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: {0} is not available yet in this version.', feature));
    });
  }
}

/** Opens the project's (the chat folder's) playbook in an editor (an empty one is created first); the agent picks up edits. */
async function openPlaybook(folder: vscode.WorkspaceFolder | undefined): Promise<void> {
  if (!folder) {
    void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: open a folder first; the playbook belongs to a project.'));
    return;
  }
  const path = playbookPath(folder.uri.fsPath);
  await new PlaybookStore(path, { onWarning: (w) => void vscode.window.showWarningMessage(vscode.l10n.t('OpenDev: {0}', w)) }).ensureExists();
  await vscode.window.showTextDocument(vscode.Uri.file(path));
}
