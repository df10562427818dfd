import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { watchEachFolder } from '../../src/vscode/folder-watchers';
import { fakeProviderSuite, until } from './support';

/**
 * Folders added to (and removed from) the two-folder workspace while OpenDev runs: an added one is
 * watched like the first ones (its OpenDev configuration is seen when it changes, the chat can
 * work there), a removed one is let go. The status bar names the chat's folder, since there is more
 * than one.
 */
describe('multi-root workspace: folders added after start, and the status bar', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite();
  const named = (name: string) => {
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.name === name);
    assert.ok(folder, `the workspace has a folder named ${name}`);
    return folder;
  };
  let extra: string;

  /** Changes the workspace's folders as "Add Folder to Workspace…" / "Remove Folder from Workspace" do, and waits for VS Code's event. */
  async function changeFolders(change: () => boolean): Promise<void> {
    const changed = new Promise<void>((resolve) => {
      const listening = vscode.workspace.onDidChangeWorkspaceFolders(() => {
        listening.dispose();
        resolve();
      });
    });
    assert.equal(change(), true, 'VS Code took the change of folders');
    await changed;
  }
  /**
   * Writes (`write(attempt)`) until `seen()`: VS Code starts watching a folder just added a moment
   * after it says the folder was added, so the first write may come before the watcher does; each
   * later write differs, and the whole is bounded by one limit. A folder nobody watches is never seen.
   */
  async function writeUntilSeen(write: (attempt: number) => void, seen: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (let attempt = 1; ; attempt++) {
      write(attempt);
      for (const next = Date.now() + 5_000; Date.now() < next; ) {
        if (seen()) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${attempt} writes)`);
    }
  }
  const addExtra = () => changeFolders(() => vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders!.length, 0, { uri: vscode.Uri.file(extra), name: 'extra' }));
  const removeExtra = () => changeFolders(() => vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders!.findIndex((f) => f.name === 'extra'), 1));

  before(() => {
    // Beside app and api, outside both (run-in-vscode.mjs puts the .code-workspace there).
    extra = join(dirname(named('app').uri.fsPath), 'extra');
    mkdirSync(join(extra, 'src'), { recursive: true });
    writeFileSync(join(extra, 'src', 'jobs.ts'), 'export const JOBS = 3;\n');
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (vscode.workspace.workspaceFolders?.some((f) => f.name === 'extra')) await removeExtra();
  });
  after(() => rmSync(extra, { recursive: true, force: true }));

  it("names the chat's folder in the status bar, and follows the chat to the other folder", async () => {
    const { api } = suite;
    await vscode.window.showTextDocument(vscode.Uri.file(join(named('api').uri.fsPath, 'src', 'server.ts')));
    await until(() => api.statusBar().text.endsWith(' · $(root-folder) api'), `the status bar to name api, not "${api.statusBar().text}"`);
    assert.match(api.statusBar().tooltip, new RegExp(`^Folder: api \\(${named('api').uri.fsPath.replace(/[/\\\\.]/g, '\\$&')}\\)$`, 'm'));
    await vscode.window.showTextDocument(vscode.Uri.file(join(named('app').uri.fsPath, 'math.ts')));
    await until(() => api.statusBar().text.endsWith(' · $(root-folder) app'), `the status bar to name app, not "${api.statusBar().text}"`);
  });

  it('a folder added after start is watched like the first ones: its configuration files are seen, and the chat can move there', async () => {
    const { api } = suite;
    await addExtra();
    assert.ok(api.chatFolders().folders.some((f) => f.name === 'extra' && f.path === extra), 'the header picker offers it');
    // Its .opendev/settings.json is watched: the extension takes the new file in (and would rebuild its agents).
    const before = api.projectConfigurationSeen();
    await writeUntilSeen(
      (attempt) => {
        mkdirSync(join(extra, '.opendev'), { recursive: true });
        writeFileSync(join(extra, '.opendev', 'settings.json'), JSON.stringify({ thinkingLevel: 'off', attempt }));
      },
      () => api.projectConfigurationSeen() > before,
      "the extension to see the added folder's .opendev/settings.json",
    );
    await vscode.window.showTextDocument(vscode.Uri.file(join(extra, 'src', 'jobs.ts')));
    await until(() => api.chatFolders().current === vscode.Uri.file(extra).toString(), 'the chat to follow the editor into the added folder');
    await until(() => api.statusBar().text.endsWith(' · $(root-folder) extra'), `the status bar to name extra, not "${api.statusBar().text}"`);
  });

  it('a removed folder is let go: the picker no longer offers it, and its files are watched no more', async () => {
    const { api } = suite;
    // The same watcher the extension's configuration, trust and MCP view use, counting what it reports per folder.
    const seen: string[] = [];
    const watching = watchEachFolder('marker-*.txt', (uri) => seen.push(uri.fsPath));
    try {
      await addExtra();
      await writeUntilSeen((attempt) => writeFileSync(join(extra, 'marker-1.txt'), `added ${attempt}`), () => seen.includes(join(extra, 'marker-1.txt')), 'the added folder to be watched');
      await removeExtra();
      assert.equal(api.chatFolders().folders.some((f) => f.name === 'extra'), false);
      // Written first in the removed folder, then twice in one still open, each awaited: what the
      // removed folder's watcher would have reported comes before the second by then.
      writeFileSync(join(extra, 'marker-2.txt'), 'removed');
      const app = named('app').uri.fsPath;
      for (const n of [3, 4]) {
        writeFileSync(join(app, `marker-${n}.txt`), 'open');
        await until(() => seen.includes(join(app, `marker-${n}.txt`)), `app's marker ${n}`);
      }
      assert.deepEqual(seen.filter((p) => p === join(extra, 'marker-2.txt')), [], 'nothing from the removed folder');
    } finally {
      watching.dispose();
      for (const n of [3, 4]) rmSync(join(named('app').uri.fsPath, `marker-${n}.txt`), { force: true });
    }
  });
});
