import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { EncryptedKeyFile } from '../../src/core/config/encrypted-key-file';
import { FallbackSecretStorage } from '../../src/vscode/setup/fallback-secret-storage';

/** A secret storage as a web VS Code without a mint-key route has it: every call fails. */
class RefusingSecrets implements vscode.SecretStorage {
  readonly onDidChange = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>().event;
  get(): Thenable<string | undefined> {
    return Promise.reject(new Error('Method Not Allowed'));
  }
  store(): Thenable<void> {
    return Promise.reject(new Error('Method Not Allowed'));
  }
  delete(): Thenable<void> {
    return Promise.reject(new Error('Method Not Allowed'));
  }
}

/** A secret storage that works (kept in memory), with its change event. */
class WorkingSecrets implements vscode.SecretStorage {
  readonly values = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  readonly onDidChange = this.changed.event;
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    this.changed.fire({ key });
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
    this.changed.fire({ key });
  }
}

/**
 * The key store the extension uses (extension-core.ts): VS Code's secret storage, and an encrypted
 * file only where that refuses. Runs in VS Code for its EventEmitter; the secret storages are
 * stand-ins for the two behaviours (the e2e reload test covers the real web one).
 */
describe('FallbackSecretStorage', () => {
  const KEY = 'sk-fallback-0123456789';
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'opendev-fallback-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('secret storage refusing: the key goes to the encrypted file, is read back, and the user is told once where', async () => {
    const file = join(dir, 'api-keys.json');
    const notices: string[] = [];
    const storage = new FallbackSecretStorage(new RefusingSecrets(), new EncryptedKeyFile(file), (text) => notices.push(text));
    const changes: string[] = [];
    storage.onDidChange((e) => changes.push(e.key));

    await storage.store('opendev.apiKey.openai', KEY);
    await storage.store('opendev.apiKey.anthropic', 'sk-ant-second');
    assert.equal(await storage.get('opendev.apiKey.openai'), KEY);
    assert.deepEqual(changes, ['opendev.apiKey.openai', 'opendev.apiKey.anthropic'], 'the agents rebuild with the new key');
    assert.equal(notices.length, 1, 'told once');
    assert.match(notices[0]!, /refused the API key \(Method Not Allowed\).*encrypted in .*api-keys\.json/);
    assert.equal(notices[0]!.includes(KEY), false, 'the notice never shows the key');
    assert.equal(readFileSync(file, 'utf8').includes(KEY), false, 'the file never holds it in clear');

    // A new window (the reload): a new store on the same file reads the key back.
    const reloaded = new FallbackSecretStorage(new RefusingSecrets(), new EncryptedKeyFile(file), () => undefined);
    assert.equal(await reloaded.get('opendev.apiKey.openai'), KEY);
    await reloaded.delete('opendev.apiKey.openai');
    assert.equal(await reloaded.get('opendev.apiKey.openai'), undefined);
    assert.equal(await reloaded.get('opendev.apiKey.anthropic'), 'sk-ant-second');
  });

  it('secret storage working: the file is not used, and a copy left there from before is removed', async () => {
    const file = join(dir, 'api-keys.json');
    await new EncryptedKeyFile(file).store('opendev.apiKey.openai', 'sk-old-fallback');
    const secrets = new WorkingSecrets();
    const notices: string[] = [];
    const storage = new FallbackSecretStorage(secrets, new EncryptedKeyFile(file), (text) => notices.push(text));
    const changes: string[] = [];
    storage.onDidChange((e) => changes.push(e.key));

    await storage.store('opendev.apiKey.openai', KEY);
    assert.equal(secrets.values.get('opendev.apiKey.openai'), KEY);
    assert.equal(await storage.get('opendev.apiKey.openai'), KEY);
    assert.equal(await new EncryptedKeyFile(file).get('opendev.apiKey.openai'), undefined, 'the fallback copy went');
    assert.deepEqual(notices, []);
    assert.deepEqual(changes, ['opendev.apiKey.openai'], "secret storage's own change event comes through");
  });
});
