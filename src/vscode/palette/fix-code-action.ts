import * as vscode from 'vscode';
import type { ChatController } from '../chat-controller';
import type { ChatViewProvider } from '../chat-view-provider';
import { fixDiagnosticsPrompt, type ProblemInfo } from './editor-prompts';
import { MAX_SELECTION_CHARS } from './editor-actions';
import { problemInfo } from './problem-info';
import { sendFromEditor } from './send-from-editor';

export const FIX_WITH_OPENDEV = 'opendev.fixWithOpenDev';

/** What the Code Action hands its command: plain data, so it survives the trip through the workbench. */
interface FixTarget {
  uri: vscode.Uri;
  /** 0-based lines, end inclusive: the lines of the diagnostics. */
  startLine: number;
  endLine: number;
  problems: ProblemInfo[];
}

/**
 * "Fix with OpenDev" in the light bulb (Ctrl+. / Cmd+.) of every error or warning, in any
 * language: the chat gets the diagnostics, the file, the lines and their code, and the fix starts.
 * Offered last (no isPreferred), so a language server's own quick fixes stay first.
 */
export function registerFixCodeAction(context: vscode.ExtensionContext, chat: ChatController, view: ChatViewProvider): void {
  const provider: vscode.CodeActionProvider = {
    provideCodeActions(document, _range, codeActionContext) {
      const diagnostics = codeActionContext.diagnostics.filter((d) => problemInfo(d).length > 0);
      if (diagnostics.length === 0 || document.uri.scheme === 'output') return [];
      const target: FixTarget = {
        uri: document.uri,
        startLine: Math.min(...diagnostics.map((d) => d.range.start.line)),
        endLine: Math.max(...diagnostics.map((d) => d.range.end.line)),
        problems: diagnostics.flatMap(problemInfo),
      };
      const action = new vscode.CodeAction(diagnostics.length === 1 ? vscode.l10n.t('Fix with OpenDev') : vscode.l10n.t('Fix {0} problems with OpenDev', diagnostics.length), vscode.CodeActionKind.QuickFix);
      action.diagnostics = diagnostics;
      action.command = { command: FIX_WITH_OPENDEV, title: action.title, arguments: [target] };
      return [action];
    },
  };
  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, provider, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
    vscode.languages.registerCodeActionsProvider({ scheme: 'untitled' }, provider, { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
    vscode.commands.registerCommand(FIX_WITH_OPENDEV, async (target?: FixTarget) => {
      if (!target?.uri || target.problems.length === 0) {
        // Only the light bulb knows which diagnostic: from elsewhere, the whole file's problems.
        await vscode.commands.executeCommand('opendev.fixProblems');
        return;
      }
      const document = await vscode.workspace.openTextDocument(target.uri);
      const endLine = Math.min(target.endLine, document.lineCount - 1);
      let text = document.getText(new vscode.Range(target.startLine, 0, endLine, document.lineAt(endLine).text.length));
      if (text.length > MAX_SELECTION_CHARS) text = text.slice(0, MAX_SELECTION_CHARS);
      const prompt = fixDiagnosticsPrompt(
        { path: vscode.workspace.asRelativePath(document.uri, false), startLine: target.startLine + 1, endLine: endLine + 1, languageId: document.languageId, text },
        target.problems,
      );
      const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === document.uri.toString());
      await sendFromEditor(chat, view, prompt, editor);
    }),
  );
}
