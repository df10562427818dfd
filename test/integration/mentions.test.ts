import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionToWebview, MentionCompletion } from '../../src/shared/protocol';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { lastUserText } from '../fixtures/fake-provider';
import { fakeProviderSuite, until } from './support';

/**
 * `@` mentions and the background-task indicator inside a real VS Code: completion over the
 * workspace through findFiles (with the project's excludes), expansion of files, diagnostics, the
 * OpenDev terminal's last command and the real git diff into what the model receives.
 */
describe('@ mentions in VS Code', function () {
  this.timeout(90_000);
  const suite = fakeProviderSuite({ approvalLevel: 'auto' });
  const { fake } = suite;
  let api: OpenDevApi;
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
  const fromView: ExtensionToWebview[] = [];
  let listening: { dispose(): void } | undefined;

  before(() => {
    api = suite.api;
    listening = api.onViewMessage((m) => fromView.push(m));
  });
  after(() => listening?.dispose());
  beforeEach(() => {
    fromView.length = 0;
  });

  /** Asks for completions as the chat view does and waits for the answer. */
  async function complete(query: string): Promise<MentionCompletion[]> {
    fromView.length = 0;
    api.fromView({ type: 'completeMention', query });
    let answer: MentionCompletion[] | undefined;
    await until(() => {
      const m = fromView.find((x) => x.type === 'mentionCompletions' && x.query === query);
      answer = m?.type === 'mentionCompletions' ? m.items : undefined;
      return answer !== undefined;
    }, `completions for @${query}`);
    return answer!;
  }

  it('completes @ma with math.ts first, and a bare @ with the special sources', async () => {
    const bare = await complete('');
    assert.deepEqual(bare.slice(0, 3).map((c) => c.target), ['problems', 'terminal', 'git']);
    assert.ok(bare.some((c) => c.target === 'math.ts' && c.kind === 'file'));
    const ma = await complete('ma');
    assert.deepEqual(ma[0], { target: 'math.ts', kind: 'file' });
  });

  it("leaves out what the project excludes (files.exclude), and folders complete too", async () => {
    const hidden = vscode.Uri.joinPath(folder(), 'generated', 'hidden-output.ts');
    await vscode.workspace.fs.writeFile(hidden, Buffer.from('export {};\n'));
    try {
      await complete('');
      assert.deepEqual((await complete('hidden-out')).map((c) => c.target), ['generated/hidden-output.ts']);
      assert.ok((await complete('generat')).some((c) => c.target === 'generated' && c.kind === 'folder'));
      await vscode.workspace.getConfiguration('files').update('exclude', { '**/generated': true }, vscode.ConfigurationTarget.Workspace);
      await complete('');
      assert.deepEqual(await complete('hidden-out'), []);
    } finally {
      await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder(), 'generated'), { recursive: true });
    }
  });

  it('@math.ts: the file content reaches the model after the text; the transcript keeps the text with its chip', async () => {
    fake.enqueue({ text: 'It exports PI, add and subtract.' });
    const result = await api.send('what does @math.ts export?');
    assert.equal(result?.status, 'completed');
    const sent = lastUserText(fake.requests[0]!);
    assert.match(sent, /^what does @math\.ts export\?\n\n<mentioned_context>/);
    assert.match(sent, /<file path="math\.ts">[\s\S]*export function subtract[\s\S]*<\/file>/);
    const user = api.transcript()[0];
    assert.equal(user?.kind === 'user' && user.text, 'what does @math.ts export?');
    assert.deepEqual(user?.kind === 'user' && user.mentions, [{ target: 'math.ts', kind: 'file', ok: true }]);
  });

  it("@problems: VS Code's diagnostics reach the model", async () => {
    const diagnostics = vscode.languages.createDiagnosticCollection('opendev-mention-test');
    const math = vscode.Uri.joinPath(folder(), 'math.ts');
    const problem = new vscode.Diagnostic(new vscode.Range(1, 4, 1, 9), "Type 'string' is not assignable to type 'number'.", vscode.DiagnosticSeverity.Error);
    problem.source = 'ts';
    problem.code = 2322;
    diagnostics.set(math, [problem]);
    try {
      fake.enqueue({ text: 'Fixed.' });
      await api.send('fix @problems');
      assert.match(lastUserText(fake.requests[0]!), /<problems>[\s\S]*math\.ts:2:5 error: Type 'string' is not assignable to type 'number'\. \[ts 2322\]/);
    } finally {
      diagnostics.dispose();
    }
  });

  it('@terminal: the last command the agent ran in the OpenDev terminal, with its output and status', async () => {
    fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo hello-mention' } }] }, { text: 'ran it' });
    await api.send('run it');
    fake.reset();
    fake.enqueue({ text: 'It printed hello-mention.' });
    await api.send('what did @terminal print?');
    assert.match(lastUserText(fake.requests[0]!), /<terminal>[\s\S]*\$ echo hello-mention\nhello-mention\n✓ exit 0\n<\/terminal>/);
  });

  it('@git: the working-tree diff from the real git (a repository made in the workspace for the test)', async () => {
    const root = folder().fsPath;
    const math = vscode.Uri.joinPath(folder(), 'math.ts');
    const before = Buffer.from(await vscode.workspace.fs.readFile(math)).toString('utf8');
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: root, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    try {
      git('init', '-q');
      git('add', '.');
      git('commit', '-q', '-m', 'fixture');
      await vscode.workspace.fs.writeFile(math, Buffer.from(before.replace('export const PI = 3.14159;', 'export const PI = Math.PI;')));
      fake.enqueue({ text: 'PI now uses Math.PI.' });
      await api.send('review @git');
      assert.match(lastUserText(fake.requests[0]!), /<git_diff>[\s\S]*-export const PI = 3\.14159;\n\+export const PI = Math\.PI;/);
    } finally {
      await vscode.workspace.fs.writeFile(math, Buffer.from(before));
      rmSync(join(root, '.git'), { recursive: true, force: true });
    }
  });

  it('the indicator hears of a background task while it runs, and opens its terminal tab', async () => {
    fake.enqueue({ toolCalls: [{ name: 'run_command', arguments: { command: 'echo serving; exec sleep 60', background: true } }] }, { text: 'started' });
    // The tool watches a new task's first output for a while: the indicator knows of it at once.
    const turn = api.send('start the server');
    let id = '';
    await until(() => {
      const m = [...fromView].reverse().find((x) => x.type === 'tasks');
      id = m?.type === 'tasks' ? m.tasks.find((t) => t.command.startsWith('echo serving'))?.id ?? '' : '';
      return id !== '';
    }, 'the tasks message');
    api.fromView({ type: 'openTask', id });
    await until(() => vscode.window.activeTerminal === api.terminal.taskTerminal(id), 'the task tab to be shown');
    api.terminal.taskTerminal(id)!.dispose(); // closing the tab kills the task
    await until(() => {
      const m = [...fromView].reverse().find((x) => x.type === 'tasks');
      return m?.type === 'tasks' && m.tasks.length === 0;
    }, 'the task to leave the indicator');
    await turn; // the turn ends once the killed task's result is in (how it ends is not the point here)
  });
});
