import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { allToolResults } from '../fixtures/fake-provider';
import { fakeProviderSuite, processRunning as running, until } from './support';

const terminalNamed = (prefix: string) => vscode.window.terminals.find((t) => t.name.startsWith(prefix));

/**
 * The terminal view inside a real VS Code: commands the agent runs (the fake model asks for them)
 * appear live in the "OpenDev" terminal; a background task gets its own tab, and closing the tab,
 * or ending the chat, kills it.
 */
describe('the OpenDev terminal in VS Code', function () {
  this.timeout(60_000);
  // The terminal view is under test here; approval cards are answered in the webview (e2e).
  const suite = fakeProviderSuite({ approvalLevel: 'auto' });
  const { fake } = suite;
  let api: OpenDevApi;
  before(() => (api = suite.api));

  it('shows each command the agent runs, its output and its exit status in the "OpenDev" terminal', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const editor = await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, 'math.ts'));
    fake.enqueue(
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo oops >&2; exit 7' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo hello-terminal' } }] },
      // node-pty loads inside the extension host: a background task runs in a real pseudo-terminal.
      { toolCalls: [{ name: 'run_command', arguments: { command: 'test -t 1 && echo in-a-tty || echo no-tty', background: true } }] },
      { text: 'done' },
    );
    const result = await api.send('say hello in the terminal');
    assert.equal(result?.status, 'completed');
    // (A recovery reminder follows the failed command's result, so results are looked up by position.)
    const [failed, hello, tty] = allToolResults(fake.requests[3]!).map((r) => r.content);
    assert.match(failed ?? '', /^oops\n\n\[exit code 7/);
    assert.match(hello ?? '', /^hello-terminal\n/);
    assert.match(tty ?? '', /Runs in a pseudo-terminal/);
    assert.match(tty ?? '', /COMPLETED \(exit 0\)\. Output:\nin-a-tty/);

    const terminal = terminalNamed('OpenDev');
    assert.ok(terminal, `an "OpenDev" terminal exists (terminals: ${vscode.window.terminals.map((t) => t.name).join(', ')})`);
    assert.equal(terminal.name, 'OpenDev');
    await until(() => api.terminal.transcript().includes('exit 0'), 'the second command to show');
    const transcript = api.terminal.transcript();
    assert.match(transcript, /\$ echo hello-terminal\nhello-terminal\n✓ exit 0\n/);
    assert.match(transcript, /\$ echo oops >&2; exit 7\noops\n✗ exit 7\n/);
    assert.equal(vscode.window.activeTextEditor, editor, 'the terminal did not take the focus from the editor');
  });

  it('a background task gets its own tab; it keeps running after Stop, and closing its tab kills it', async () => {
    fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo pid=$$; exec sleep 120', background: true } }] }, { text: 'unused' });
    const turn = api.send('start a long task');
    // run_command waits up to 20 s for a new task's first output; Stop ends the wait, not the task.
    const ours = () => api.terminal.taskIds().find((id) => api.terminal.transcript(id).includes('exec sleep 120'));
    await until(() => terminalNamed('OpenDev: echo pid=') !== undefined && ours() !== undefined, 'the task tab');
    const tabName = terminalNamed('OpenDev: echo pid=')!.name;
    const taskId = ours()!;
    assert.match(api.terminal.transcript(taskId), new RegExp(`^\\$ echo pid=\\$\\$; exec sleep 120\\n\\[background task ${taskId} in `));
    await until(() => /pid=\d+/.test(api.terminal.transcript(taskId)), 'the task to print its pid');
    const pid = Number(/pid=(\d+)/.exec(api.terminal.transcript(taskId))![1]);
    await vscode.commands.executeCommand('opendev.stop');
    assert.equal((await turn)?.status, 'stopped');
    assert.equal(running(pid), true, 'the task survives Stop');

    const tab = api.terminal.taskTerminal(taskId);
    assert.ok(tab);
    assert.equal(tab.name, tabName);
    tab.dispose();
    await until(() => !running(pid), 'the task to be killed when its tab closes');
    await until(() => !vscode.window.terminals.some((t) => t.name === tabName), 'the tab to go');
  });

  it('ending the chat kills its background tasks, and their tabs say so', async () => {
    fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo pid=$$; exec sleep 121', background: true } }] }, { text: 'unused' });
    const turn = api.send('start another task');
    const ours = () => api.terminal.taskIds().find((id) => /exec sleep 121[\s\S]*pid=\d+/.test(api.terminal.transcript(id)));
    await until(() => ours() !== undefined, 'the task to start');
    const taskId = ours()!;
    const pid = Number(/pid=(\d+)/.exec(api.terminal.transcript(taskId))![1]);
    await vscode.commands.executeCommand('opendev.stop');
    await turn;
    api.newChat();
    await until(() => !running(pid), 'the task to be killed with the chat');
    await until(() => /■ stopped/.test(api.terminal.transcript(taskId)), 'the tab to show the end');
  });
});

