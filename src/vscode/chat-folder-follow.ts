// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';
import type * as vscode from 'vscode';
import type { ChatController } from './chat-controller';
import type { ChatFolder } from './chat-folder';

/**
 * Moves the chat with its folder: while no conversation is under way it simply works in the new
 * folder; a conversation under way is never moved silently: a pick in the header ends it as New
 * Chat does (it stays in the old folder's history) and the chat says so.
 */
export function followChatFolder(chat: ChatController, folder: ChatFolder): vscode.Disposable {
  let current = folder.path;
  return folder.onDidChange(({ folder: now, picked }) => {
    const path = now?.uri.fsPath;
    if (!path || (path === current && !picked)) return;
    const from = current;
    current = path;
    if (path === from) return; // picked the folder it is in: nothing to start again
    const notice = chat.started
      ? from
        ? l10n.t("New chat in {0}: OpenDev now works in {1}. The conversation in {2} is kept in that folder's history.", now.name, path, from)
        : l10n.t("New chat in {0}: OpenDev now works in {1}. The conversation in the other folder is kept in that folder's history.", now.name, path)
      : picked
        ? l10n.t('OpenDev works in {0} ({1}) in this chat.', now.name, path)
        : undefined;
    chat.moveTo(path, notice);
  });
}
