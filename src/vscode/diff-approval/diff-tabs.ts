import * as vscode from 'vscode';

/**
 * Opens a diff editor without taking the focus: beside the active editor group (an existing
 * group when there is one), so the user's cursor and active editor stay where they were. Pinned
 * rather than a preview, so it never replaces a preview tab the user has open there.
 */
export async function openDiffQuietly(original: vscode.Uri, modified: vscode.Uri, title: string): Promise<void> {
  const hasEditors = vscode.window.visibleTextEditors.length > 0 || vscode.window.tabGroups.all.some((g) => g.tabs.length > 0);
  await vscode.commands.executeCommand('vscode.diff', original, modified, title, {
    preserveFocus: true,
    preview: false,
    viewColumn: hasEditors ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active,
  } satisfies vscode.TextDocumentShowOptions);
}

/** Whether a diff editor showing `modified` (one of our virtual documents) is open in some tab. */
export function isDiffOpen(modified: vscode.Uri): boolean {
  return diffTabs(modified).length > 0;
}

/**
 * Closes the diff editors whose modified side is `modified` (and nothing else: the user's own
 * editors of the same file stay open). Focus stays where it is.
 */
export async function closeDiffTabs(modified: vscode.Uri): Promise<void> {
  const tabs = diffTabs(modified);
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true);
}

function diffTabs(modified: vscode.Uri): vscode.Tab[] {
  const key = modified.toString();
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === key);
}
