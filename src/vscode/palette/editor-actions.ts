import * as vscode from 'vscode';
import type { ChatController } from '../chat-controller';
import type { ChatViewProvider } from '../chat-view-provider';
import { explainSelectionPrompt, fixProblemsPrompt, selectionReference, type SelectionInfo } from './editor-prompts';
import { problemInfo } from './problem-info';
import { sendFromEditor } from './send-from-editor';

/** Longer selections are refused with a hint: the model can read the file itself. */
export const MAX_SELECTION_CHARS = 40_000;

/**
 * The editor's palette actions: Explain Selection and Fix Problems in File send a prompt to the
 * chat (which opens without taking the focus from the editor); Add Selection to Chat puts a
 * reference in the chat input and focuses it, for the user to type their question.
 */
export function registerEditorActions(context: vscode.ExtensionContext, chat: ChatController, view: ChatViewProvider): void {
  const register = (id: string, run: (...args: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, run));

  register('opendev.explainSelection', async () => {
    const selected = currentSelection(vscode.l10n.t('Explain Selection with OpenDev'));
    if (selected) await sendFromEditor(chat, view, explainSelectionPrompt(selected.info), selected.editor);
  });

  register('opendev.addSelectionToChat', async () => {
    const selected = currentSelection(vscode.l10n.t('Add Selection to OpenDev Chat'));
    if (selected) await view.compose(selectionReference(selected.info));
  });

  // From the palette: the active editor's file. From a menu: the file it was opened on.
  register('opendev.fixProblems', async (target?: unknown) => {
    const editor = vscode.window.activeTextEditor;
    const uri = target instanceof vscode.Uri ? target : editor?.document.uri;
    if (!uri) {
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: open a file first; Fix Problems in File works on the file in the active editor.'));
      return;
    }
    const path = vscode.workspace.asRelativePath(uri, false);
    const problems = vscode.languages.getDiagnostics(uri).flatMap(problemInfo);
    if (problems.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: VS Code reports no errors or warnings in {0}.', path));
      return;
    }
    await sendFromEditor(chat, view, fixProblemsPrompt(path, problems), editor?.document.uri.toString() === uri.toString() ? editor : undefined);
  });
}

/** The primary selection of the active editor, or undefined after telling the user what is missing. */
function currentSelection(action: string): { editor: vscode.TextEditor; info: SelectionInfo } | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) {
    void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: select some code in an editor first, then run {0}.', action));
    return undefined;
  }
  const { selection, document } = editor;
  const text = document.getText(selection);
  if (text.length > MAX_SELECTION_CHARS) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('OpenDev: the selection is too long to send ({0} characters, at most {1}). Select less, or ask about the file by name.', text.length.toLocaleString('en-US'), MAX_SELECTION_CHARS.toLocaleString('en-US')),
    );
    return undefined;
  }
  // A selection that ends at the start of a line (whole lines selected) does not include that line.
  const endLine = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
  return {
    editor,
    info: { path: vscode.workspace.asRelativePath(document.uri, false), startLine: selection.start.line + 1, endLine, languageId: document.languageId, text },
  };
}
