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
      ? `New chat in ${now.name}: OpenDev now works in ${path}. The conversation in ${from ?? 'the other folder'} is kept in that folder's history.`
      : picked
        ? `OpenDev works in ${now.name} (${path}) in this chat.`
        : undefined;
    chat.moveTo(path, notice);
  });
}
