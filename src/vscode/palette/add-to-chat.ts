import * as vscode from 'vscode';
import { mentionText } from '../../shared/mention-syntax';
import type { ChatViewProvider } from '../chat-view-provider';

export const ADD_TO_CHAT = 'opendev.addToChat';

/**
 * "Add to OpenDev Chat" in the explorer's and the editor tab's context menus: an `@` mention of
 * each chosen file or folder goes into the chat input (the input's own mention syntax, so it
 * completes, shows and expands like a typed one), and the input takes the focus.
 * The explorer passes the clicked resource and the whole selection; a tab passes its resource.
 */
export function registerAddToChat(context: vscode.ExtensionContext, view: ChatViewProvider): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(ADD_TO_CHAT, async (clicked?: unknown, selected?: unknown) => {
      const uris = chosenResources(clicked, selected);
      if (uris.length === 0) {
        void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: choose a file or folder in the Explorer (or an editor tab), then run Add to OpenDev Chat.'));
        return;
      }
      const inside = uris.filter((u) => vscode.workspace.getWorkspaceFolder(u) !== undefined);
      if (inside.length < uris.length) {
        void vscode.window.showWarningMessage(vscode.l10n.t('OpenDev: only files and folders inside the workspace can be mentioned; the others were left out.'));
      }
      if (inside.length === 0) return;
      // With several folders open the path names its folder, as the mention completions do.
      const mentions = inside.map((u) => mentionText(vscode.workspace.asRelativePath(u, (vscode.workspace.workspaceFolders?.length ?? 0) > 1)));
      await view.compose(`${mentions.join(' ')} `);
    }),
  );
}

/** The explorer's multi-selection when the clicked item is part of it, else the clicked item; else the active editor's file. */
function chosenResources(clicked: unknown, selected: unknown): vscode.Uri[] {
  const many = Array.isArray(selected) ? selected.filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
  if (clicked instanceof vscode.Uri) return many.some((u) => u.toString() === clicked.toString()) ? many : [clicked];
  const active = vscode.window.activeTextEditor?.document.uri;
  return active && active.scheme === 'file' ? [active] : [];
}
