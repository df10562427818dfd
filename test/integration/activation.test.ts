// Smoke test: the extension under development is loaded by the real VS Code and activates.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

describe('activation', () => {
  it('loads and activates the opendev.opendev extension', async () => {
    const ext = vscode.extensions.getExtension('opendev.opendev');
    assert.ok(ext, 'extension opendev.opendev is not installed in the extension host');
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers the opendev.newChat command', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('opendev.newChat'), 'command opendev.newChat is not registered');
  });
});
