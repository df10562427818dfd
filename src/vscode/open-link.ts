import * as vscode from 'vscode';
import { externalUrl, type LinkTarget } from '../shared/link-target';
import { workspaceFile } from './workspace-file';

/**
 * Opens a link the chat view asked for, after checking it again here (the view is not trusted): a
 * web address only with http, https or mailto, through VS Code's openExternal (which asks before
 * leaving for an unknown site as it does for every link); a file only inside one of the workspace's
 * folders (by its real path too, so a link out of the workspace or to a secret is refused), in an
 * editor at the line. Returns why it did not open, for the log and a message.
 */
export async function openLinkTarget(target: LinkTarget, folders: readonly string[]): Promise<string | undefined> {
  if (target.kind === 'url') {
    const url = externalUrl(target.url);
    if (!url) return `not a web address OpenDev opens (http, https, mailto): ${target.url}`;
    await vscode.env.openExternal(vscode.Uri.parse(url, true));
    return undefined;
  }
  const file = workspaceFile(target.path, folders);
  if (typeof file !== 'string') return file.problem;
  const line = Math.max(0, (target.line ?? 1) - 1);
  const column = Math.max(0, (target.column ?? 1) - 1);
  const uri = vscode.Uri.file(file);
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) {
      await vscode.commands.executeCommand('revealInExplorer', uri);
      return undefined;
    }
  } catch {
    return `${target.path} does not exist in the workspace`;
  }
  const position = new vscode.Position(line, column);
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(position, position), preview: true });
  return undefined;
}
