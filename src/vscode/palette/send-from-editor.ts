import * as vscode from 'vscode';
import type { ChatController } from '../chat-controller';
import type { ChatViewProvider } from '../chat-view-provider';

/**
 * Sends a prompt from the editor: the chat opens beside it and the focus goes back to the editor.
 * While the agent works on something else the prompt is not mixed into that task: the user may put
 * it in the chat input instead.
 */
export async function sendFromEditor(chat: ChatController, view: ChatViewProvider, prompt: string, editor: vscode.TextEditor | undefined): Promise<void> {
  if (chat.busy) {
    const put = vscode.l10n.t('Put It in the Chat Input');
    const choice = await vscode.window.showInformationMessage(vscode.l10n.t('OpenDev is working on another task. Wait for it to finish (or press Stop), or put this request in the chat input for later.'), put);
    if (choice === put) await view.compose(prompt);
    return;
  }
  await view.reveal();
  // Opening the view for the first time focuses it; the user was in the editor and stays there.
  if (editor) await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
  await chat.send(prompt);
}
