import * as vscode from 'vscode';
import type { EncryptedKeyFile } from '../../core/config/encrypted-key-file';

/**
 * VS Code's SecretStorage, and an encrypted file (EncryptedKeyFile) only for when it refuses: a web
 * VS Code whose server does not mint the key the browser seals secrets with answers a store with
 * an error, and a key kept nowhere would be asked for again at every reload. The file is used for
 * nothing else; a key VS Code does take is removed from it. The user is told once where the key is
 * kept. No value is ever logged or shown, only the reason secret storage gave.
 */
export class FallbackSecretStorage implements vscode.SecretStorage, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  private readonly subscription: vscode.Disposable;
  private told = false;
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly file: EncryptedKeyFile,
    /** Tells the user (once) that keys go to the file, and why. */
    private readonly notify: (text: string) => void = (text) => void vscode.window.showWarningMessage(text),
  ) {
    this.subscription = secrets.onDidChange((e) => this.changed.fire(e));
  }

  async get(key: string): Promise<string | undefined> {
    try {
      const value = await this.secrets.get(key);
      if (value !== undefined) return value;
    } catch { /* refused: the file may hold it */ }
    // A file changed or from another machine holds nothing usable: as if no key was stored.
    return this.file.get(key).catch(() => undefined);
  }

  async store(key: string, value: string): Promise<void> {
    let refusal: string;
    try {
      await this.secrets.store(key, value);
      await this.file.delete(key).catch(() => undefined); // an older fallback copy goes
      return;
    } catch (err) {
      refusal = err instanceof Error ? err.message : String(err);
    }
    await this.file.store(key, value);
    this.changed.fire({ key });
    if (!this.told) {
      this.told = true;
      this.notify(vscode.l10n.t("OpenDev: VS Code's secret storage refused the API key ({0}), so OpenDev keeps it encrypted in {1}, readable only by your user on this machine.", refusal.slice(0, 120), this.file.file));
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.secrets.delete(key);
    } catch { /* refused: the file may still hold it */ }
    const had = (await this.file.get(key).catch(() => 'unreadable')) !== undefined;
    await this.file.delete(key);
    if (had) this.changed.fire({ key });
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
