import * as vscode from 'vscode';

/** After the first update, how long diagnostics must stay unchanged to count as settled (syntax, then semantic). */
const QUIET_MS = 300;
const POLL_MS = 50;

/**
 * Notes when each file's diagnostics change from the moment it is created (just before an edit),
 * so a caller can wait for the language server's verdict on that edit. A server never announces
 * diagnostics that did not change, so waiting ends at the caller's limit then.
 */
export class DiagnosticsWatch implements vscode.Disposable {
  private readonly changedAt = new Map<string, number>();
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.subscription = vscode.languages.onDidChangeDiagnostics((e) => {
      const now = Date.now();
      for (const uri of e.uris) this.changedAt.set(uri.toString(), now);
    });
  }

  /** Resolves once `uri`'s diagnostics changed and then stayed quiet, or after `maxWaitMs`. */
  async settled(uri: vscode.Uri, maxWaitMs: number): Promise<void> {
    const key = uri.toString();
    const deadline = Date.now() + maxWaitMs;
    while (Date.now() < deadline) {
      const last = this.changedAt.get(key);
      if (last !== undefined && Date.now() - last >= QUIET_MS) return;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
