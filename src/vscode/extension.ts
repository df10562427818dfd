import * as vscode from 'vscode';
import type { TurnResult } from '../core/agent/turn-result';
import type { ChatEntry } from '../shared/protocol';
import { vscodeAgentSource } from './agent-source';
import { ChatController } from './chat-controller';
import { CHAT_VIEW_ID, ChatViewProvider } from './chat-view-provider';
import { registerCommands } from './commands';
import { SECTION } from './settings';

/** What the extension returns from activate(): used by other extensions and by our integration tests. */
export interface OpenDevApi {
  send(text: string): Promise<TurnResult | undefined>;
  transcript(): readonly ChatEntry[];
  newChat(): void;
}

export function activate(context: vscode.ExtensionContext): OpenDevApi {
  const log = vscode.window.createOutputChannel('OpenDev', { log: true });
  const chat = new ChatController(vscodeAgentSource(context.secrets));
  const view = new ChatViewProvider(context.extensionUri, chat, log, (action) => {
    if (action === 'setApiKey') void vscode.commands.executeCommand('opendev.setApiKey');
    else void vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${context.extension.id}`);
  });

  context.subscriptions.push(
    log,
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view),
    chat.onMessage((m) => {
      if (m.type === 'busy') void vscode.commands.executeCommand('setContext', 'opendev.busy', m.busy);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(SECTION) && chat.invalidateAgent()),
    context.secrets.onDidChange(() => chat.invalidateAgent()),
    { dispose: () => chat.stop() },
  );
  registerCommands(context, chat, view);

  return {
    send: (text) => chat.send(text),
    transcript: () => chat.transcript(),
    newChat: () => chat.newChat(),
  };
}

export function deactivate(): void {}
