import * as vscode from 'vscode';
import { localFolders } from './chat-folder';

/**
 * File watchers on `glob` in every local workspace folder, kept in step with the workspace: a folder
 * added after activation (File: Add Folder to Workspace…) is watched like the first ones, and a
 * removed one is let go (VS Code would go on watching a folder outside the workspace for us).
 * `onChange` gets the file created, changed or deleted.
 */
export function watchEachFolder(glob: string, onChange: (uri: vscode.Uri) => void): vscode.Disposable {
  const watchers = new Map<string, vscode.Disposable[]>();
  const watch = (folder: vscode.WorkspaceFolder) => {
    const id = folder.uri.toString();
    if (folder.uri.scheme !== 'file' || watchers.has(id)) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, glob));
    watchers.set(id, [watcher.onDidChange(onChange), watcher.onDidCreate(onChange), watcher.onDidDelete(onChange), watcher]);
  };
  const unwatch = (folder: vscode.WorkspaceFolder) => {
    const id = folder.uri.toString();
    watchers.get(id)?.forEach((d) => d.dispose());
    watchers.delete(id);
  };
  localFolders().forEach(watch);
  const folders = vscode.workspace.onDidChangeWorkspaceFolders(({ added, removed }) => {
    removed.forEach(unwatch);
    added.forEach(watch);
  });
  return {
    dispose: () => {
      folders.dispose();
      for (const list of watchers.values()) list.forEach((d) => d.dispose());
      watchers.clear();
    },
  };
}
