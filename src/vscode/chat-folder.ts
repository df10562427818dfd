import * as vscode from 'vscode';
import type { FolderChoice } from '../shared/protocol';

/** The workspace's folders OpenDev can work in: local ones (it needs files on disk, a shell and git). */
export function localFolders(): readonly vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
}

/** The local workspace folder holding the active editor's file, if any. */
export function editorFolder(): vscode.WorkspaceFolder | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  const folder = uri && vscode.workspace.getWorkspaceFolder(uri);
  return folder?.uri.scheme === 'file' ? folder : undefined;
}

/** The chat's folder now; `picked`: the user chose it (else it followed the editor, or the folders changed). */
export interface FolderChange {
  folder: vscode.WorkspaceFolder | undefined;
  picked: boolean;
}

/**
 * The folder the chat works in (a multi-root workspace has several; the chat works in one at a
 * time). Until the chat starts it follows the active editor (the first folder when no editor is
 * open); once its conversation starts, or the user picks one in the chat's header, it is held, so a
 * running conversation never moves silently. New Chat lets it follow the editor again.
 */
export class ChatFolder implements vscode.Disposable {
  private held: vscode.WorkspaceFolder | undefined;
  /** The folder last reported, to tell a change from another editor in the same folder. */
  private reported: string | undefined;
  private readonly changed = new vscode.EventEmitter<FolderChange>();
  /** The chat's folder is another one now (or the list of folders changed). */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.reported = this.current?.uri.toString();
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor(() => this.report(false)),
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        if (this.held && !isOpen(this.held)) this.held = undefined;
        this.report(true);
      }),
    ];
  }

  /** The chat's folder now; undefined when no local folder is open. */
  get current(): vscode.WorkspaceFolder | undefined {
    if (this.held && isOpen(this.held)) return this.held;
    return editorFolder() ?? localFolders()[0];
  }

  /** The path of the chat's folder. */
  get path(): string | undefined {
    return this.current?.uri.fsPath;
  }

  /** Whether the chat keeps its folder (its conversation started, or the user picked it). */
  get isHeld(): boolean {
    return this.held !== undefined && isOpen(this.held);
  }

  /** The chat starts here: the folder holds until New Chat or a pick. Returns it. */
  hold(): vscode.WorkspaceFolder | undefined {
    this.held = this.current;
    return this.held;
  }

  /** The user picked `folder` in the chat's header (or a command did): held from now on. */
  choose(folder: vscode.WorkspaceFolder): void {
    this.held = folder;
    this.report(false, true);
  }

  /** New Chat: the next conversation follows the active editor again. */
  release(): void {
    this.held = undefined;
    this.report(false);
  }

  /** Looks at the active editor again (a message is about to start the chat). */
  refresh(): void {
    this.report(false);
  }

  /** The workspace folder with this id (its URI), if it is still open and local. */
  byId(id: string): vscode.WorkspaceFolder | undefined {
    return localFolders().find((f) => f.uri.toString() === id);
  }

  /** The header's picker: every local folder, and which one the chat is in. */
  choices(): { folders: FolderChoice[]; current?: string } {
    const current = this.current?.uri.toString();
    return { folders: localFolders().map((f) => ({ id: f.uri.toString(), name: f.name, path: f.uri.fsPath })), ...(current ? { current } : {}) };
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }

  private report(always: boolean, picked = false): void {
    const now = this.current;
    const id = now?.uri.toString();
    if (!always && !picked && id === this.reported) return;
    this.reported = id;
    this.changed.fire({ folder: now, picked });
  }
}

function isOpen(folder: vscode.WorkspaceFolder): boolean {
  return localFolders().some((f) => f.uri.toString() === folder.uri.toString());
}
