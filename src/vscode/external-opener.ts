import * as vscode from 'vscode';

/**
 * open_browser's port in the editor: VS Code opens the URL where the user is (their browser, also
 * for a remote window), after its own trusted-domain check. `vscode.env` is read at each call.
 */
export function openExternally(url: string): Promise<boolean> {
  return Promise.resolve(vscode.env.openExternal(vscode.Uri.parse(url, true)));
}
