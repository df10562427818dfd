import * as vscode from 'vscode';
import type { ChatController } from '../chat-controller';
import type { ChatViewProvider } from '../chat-view-provider';
import { explainTerminalPrompt } from './editor-prompts';
import { MAX_SELECTION_CHARS } from './editor-actions';
import { sendFromEditor } from './send-from-editor';

export const EXPLAIN_TERMINAL_SELECTION = 'opendev.explainTerminalSelection';

/**
 * "Explain with OpenDev" in the terminal's context menu. VS Code 1.99 has no stable API for a
 * terminal's selection (`Terminal.selection` is the proposed `terminalSelection`), so the text is
 * taken the way the user would: the terminal's own Copy, read back from the clipboard, and the
 * clipboard then restored to what it held. The menu item shows whether or not text is selected, as
 * the terminal's own Copy does: VS Code keeps `terminalTextSelected` in each terminal's own context,
 * which the terminal's context menu does not read, so a `when` on it hides the item for good.
 */
export function registerExplainTerminal(context: vscode.ExtensionContext, chat: ChatController, view: ChatViewProvider): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(EXPLAIN_TERMINAL_SELECTION, async () => {
      const text = await terminalSelection();
      if (!text.trim()) {
        void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: select some text in a terminal first, then run Explain with OpenDev.'));
        return;
      }
      const kept = text.length > MAX_SELECTION_CHARS ? text.slice(-MAX_SELECTION_CHARS) : text; // the end of a log says most
      await sendFromEditor(chat, view, explainTerminalPrompt(kept), undefined);
    }),
  );
}

async function terminalSelection(): Promise<string> {
  const before = await vscode.env.clipboard.readText();
  // A marker, so an empty selection (Copy does nothing) is not mistaken for what the clipboard held.
  const marker = `opendev-no-selection-${Date.now()}`;
  await vscode.env.clipboard.writeText(marker);
  try {
    await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
    const copied = await vscode.env.clipboard.readText();
    return copied === marker ? '' : copied;
  } finally {
    await vscode.env.clipboard.writeText(before);
  }
}
