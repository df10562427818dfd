import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { lastUserText } from '../fixtures/fake-provider';
import { fakeProviderSuite, until } from './support';

/**
 * Where an editor user's habits look for OpenDev, in a real VS Code: the light bulb on a real
 * TypeScript diagnostic, the explorer and tab menus' command with the arguments those menus pass,
 * the Source Control button on a real git repository (the built-in Git extension), and the
 * keybindings against the default keybindings of this VS Code. The model is the fake provider
 * behind the real openai SDK.
 */
describe('editor habits in VS Code', function () {
  this.timeout(180_000);
  const suite = fakeProviderSuite();
  const { fake } = suite;
  let folder: vscode.Uri;

  before(() => {
    folder = vscode.workspace.workspaceFolders![0]!.uri;
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('offers "Fix with OpenDev" in the light bulb of a TypeScript error; choosing it sends the error, file, lines and code to the agent', async () => {
    const uri = vscode.Uri.joinPath(folder, 'habits-broken.ts');
    await vscode.workspace.fs.writeFile(uri, Buffer.from('export const ok = 1;\nexport const count: number = "three";\n'));
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      await until(() => vscode.languages.getDiagnostics(uri).some((d) => d.severity === vscode.DiagnosticSeverity.Error), 'TypeScript to report the error', 90_000);
      const diagnostic = vscode.languages.getDiagnostics(uri).find((d) => d.severity === vscode.DiagnosticSeverity.Error)!;

      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
      const ours = actions.find((a) => a.title === 'Fix with OpenDev');
      assert.ok(ours, `offered among ${actions.map((a) => a.title).join(', ')}`);
      assert.equal(ours.kind?.value, vscode.CodeActionKind.QuickFix.value);
      assert.ok(ours.command, 'the action runs a command');

      // On a line without a problem: not offered.
      const clean = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, new vscode.Range(0, 0, 0, 3), vscode.CodeActionKind.QuickFix.value);
      assert.equal(clean.find((a) => a.title.includes('OpenDev')), undefined);

      fake.enqueue({ text: 'count is a number now.' });
      await vscode.commands.executeCommand(ours.command.command, ...(ours.command.arguments ?? []));
      await until(() => suite.api.transcript().some((e) => e.kind === 'assistant'), 'the agent to answer');
      assert.equal(fake.requests.length, 1);
      const prompt = lastUserText(fake.requests[0]!);
      assert.match(prompt, /^Fix the problems VS Code reports in `habits-broken\.ts` \(line 2\):/);
      assert.match(prompt, /^- line 2, column \d+: error \(ts 2322\): Type 'string' is not assignable to type 'number'\.$/m);
      assert.ok(prompt.includes('```typescript\nexport const count: number = "three";\n```'), prompt);
      assert.equal(suite.api.transcript()[0]?.kind, 'user', 'the request shows in the chat');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.fs.delete(uri);
    }
  });

  it('"Explain with OpenDev" sends a terminal\'s selected output to the agent, and the clipboard keeps what the user had', async () => {
    const terminal = vscode.window.createTerminal({ name: 'habits-explain', cwd: folder });
    const copied = async () => {
      await vscode.commands.executeCommand('workbench.action.terminal.selectAll');
      await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
      return vscode.env.clipboard.readText();
    };
    try {
      terminal.show();
      terminal.sendText('echo opendev-explain-$((6*7))');
      // The shell starts, runs the line and prints: read the screen as the command will, within one limit.
      for (const deadline = Date.now() + 60_000; !(await copied()).includes('opendev-explain-42'); await new Promise((r) => setTimeout(r, 250))) {
        assert.ok(Date.now() < deadline, 'the command\'s output in the terminal');
      }
      await vscode.env.clipboard.writeText('what the user copied');
      await vscode.commands.executeCommand('workbench.action.terminal.selectAll');

      fake.enqueue({ text: 'It printed 42.' });
      const before = fake.requests.length;
      await vscode.commands.executeCommand('opendev.explainTerminalSelection');
      await until(() => fake.requests.length > before, 'the request to reach the model');
      const prompt = lastUserText(fake.requests.at(-1)!);
      assert.match(prompt, /^Explain this output from my terminal/);
      assert.ok(prompt.includes('opendev-explain-42'), prompt);
      assert.equal(await vscode.env.clipboard.readText(), 'what the user copied', 'the clipboard is put back');
    } finally {
      terminal.dispose();
    }
  });

  it('"Add to OpenDev Chat" from the explorer puts an @ mention of each selected file and folder in the chat input, sending nothing', async () => {
    const math = vscode.Uri.joinPath(folder, 'math.ts');
    const symbols = vscode.Uri.joinPath(folder, 'symbols');
    // The explorer passes the clicked item and the whole selection.
    await vscode.commands.executeCommand('opendev.addToChat', math, [math, symbols]);
    await until(() => suite.api.composerText().includes('@math.ts'), 'the mentions in the chat input');
    assert.match(suite.api.composerText(), /@math\.ts @symbols \n?$/);
    await until(() => suite.api.chatView().inputFocused, 'the chat input to take the focus');
    assert.equal(fake.requests.length, 0, 'nothing is sent');
  });

  it('"Add to OpenDev Chat" from an editor tab adds that file', async () => {
    const readme = vscode.Uri.joinPath(folder, 'README.md');
    const before = suite.api.composerText();
    // A tab's context menu passes its resource and the tab's identity.
    await vscode.commands.executeCommand('opendev.addToChat', readme, { groupId: 1, editorIndex: 0 });
    await until(() => suite.api.composerText() !== before, 'the mention in the chat input');
    assert.match(suite.api.composerText(), /@README\.md \n?$/);
  });

  it('"Write Commit Message with OpenDev" writes the model\'s message for the staged changes into the repository\'s commit box', async () => {
    // Inside the workspace: the Git extension does not open a repository outside it (a "parent folder") unasked.
    const root = mkdtempSync(join(folder.fsPath, 'scm-repo-'));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=OpenDev Test', '-c', 'user.email=test@example.invalid', ...args], { cwd: root, encoding: 'utf8' });
    git('init', '-q');
    writeFileSync(join(root, 'greet.ts'), 'export const greeting = "hi";\n');
    git('add', '.');
    git('commit', '-q', '-m', 'Initial commit');
    writeFileSync(join(root, 'greet.ts'), 'export const greeting = "hello";\n');
    git('add', 'greet.ts');
    writeFileSync(join(root, 'notes.txt'), 'not staged\n');

    try {
      const gitExtension = vscode.extensions.getExtension<{ getAPI(v: 1): { openRepository(u: vscode.Uri): Promise<{ rootUri: vscode.Uri; inputBox: { value: string } } | null> } }>('vscode.git');
      assert.ok(gitExtension, 'the built-in Git extension is there');
      const gitApi = (gitExtension.isActive ? gitExtension.exports : await gitExtension.activate()).getAPI(1);
      const repository = await gitApi.openRepository(vscode.Uri.file(root));
      assert.ok(repository, 'VS Code opened the repository');

      fake.enqueue({ text: 'Greet with "hello" instead of "hi"' });
      // The Source Control title passes the SourceControl it was pressed on; its rootUri names the repository.
      await vscode.commands.executeCommand('opendev.writeCommitMessage', { rootUri: repository.rootUri });
      await until(() => repository.inputBox.value !== '', 'the message in the commit box');
      assert.equal(repository.inputBox.value, 'Greet with "hello" instead of "hi"');
      assert.equal(fake.requests.length, 1);
      const asked = lastUserText(fake.requests[0]!);
      assert.match(asked, /^Diff:\ndiff --git a\/greet\.ts b\/greet\.ts/);
      assert.match(asked, /^-export const greeting = "hi";$/m);
      assert.match(asked, /^\+export const greeting = "hello";$/m);
      assert.ok(!asked.includes('notes.txt'), 'only the staged change');
      assert.equal(git('log', '--oneline').trim().split('\n').length, 1, 'nothing was committed');
      assert.deepEqual(suite.api.transcript(), [], 'the chat is not involved');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('OpenDev\'s chords are none of this VS Code\'s default keybindings', async () => {
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    await until(() => vscode.window.activeTextEditor?.document.uri.scheme === 'vscode', 'the default keybindings to open');
    const text = vscode.window.activeTextEditor!.document.getText();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    // `{ "key": "ctrl+shift+p", "command": "…" }` per binding; the extensions' (OpenDev's included) are listed too.
    const bindings = [...text.matchAll(/"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"/g)].map((m) => ({ key: m[1]!, command: m[2]! }));
    assert.ok(bindings.length > 300, `read ${bindings.length} default keybindings`);
    assert.ok(bindings.some((b) => b.key === 'ctrl+shift+p'), 'the palette is among them');
    const ours = bindings.filter((b) => b.command.startsWith('opendev.'));
    assert.deepEqual(ours.map((b) => b.key).sort(), ['alt+m', 'ctrl+\'', 'ctrl+shift+\'', 'escape', 'escape'].sort(), 'OpenDev contributes these on Linux');
    const others = new Set(bindings.filter((b) => !b.command.startsWith('opendev.') && !b.command.startsWith('-')).flatMap((b) => b.key.split(' ')));
    for (const chord of ['alt+m', 'ctrl+\'', 'ctrl+shift+\'']) assert.ok(!others.has(chord), `${chord} is not a default`);
  });
});
