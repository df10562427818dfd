import * as vscode from 'vscode';

export const PROPOSAL_SCHEME = 'opendev-proposed';

/**
 * Read-only virtual documents (`opendev-proposed:`) holding text that is not on disk: an edit's
 * proposed content while it waits for approval, an empty "before" for a new file, and the
 * before/after snapshots of a finished edit. The URI keeps the file's path (so the editor picks
 * its language and shows its name) and a query that tells proposals apart.
 */
export class ProposalDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  /** `resolve` supplies the text of tags not held here (snapshots kept elsewhere, read when shown). */
  constructor(private readonly resolve: (tag: string) => string | undefined = () => undefined) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? this.resolve(uri.query) ?? '';
  }

  /** The URI of `filePath` (absolute) tagged `tag`. */
  uri(filePath: string, tag: string): vscode.Uri {
    return vscode.Uri.file(filePath).with({ scheme: PROPOSAL_SCHEME, query: tag });
  }

  /** Holds `content` under a URI for `filePath` (absolute) tagged `tag`; returns that URI. */
  put(filePath: string, tag: string, content: string): vscode.Uri {
    const uri = this.uri(filePath, tag);
    const key = uri.toString();
    const known = this.contents.has(key);
    this.contents.set(key, content);
    if (known) this.changed.fire(uri);
    return uri;
  }

  has(uri: vscode.Uri): boolean {
    return this.contents.has(uri.toString());
  }

  drop(uri: vscode.Uri): void {
    this.contents.delete(uri.toString());
  }

  dispose(): void {
    this.contents.clear();
    this.changed.dispose();
  }
}
