import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatEntryOf, ExtensionToWebview, MentionCompletion } from '../../src/shared/protocol';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { lastUserText, toolResults } from '../fixtures/fake-provider';
import { fakeProviderSuite, until } from './support';

/**
 * A two-folder workspace (run-in-vscode.mjs's multi-root pass opens `app`, the sample project, and
 * `api`, a second one): the chat works in one folder at a time, the active editor's when it starts
 * or the one picked in its header; its tools resolve paths there; mentions complete across both.
 */
describe('multi-root workspace: the chat works in one folder at a time', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite({ approvalLevel: 'auto' });
  const { fake } = suite;
  let api: OpenDevApi;
  const folderNamed = (name: string): vscode.WorkspaceFolder => {
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.name === name);
    assert.ok(folder, `the workspace has a folder named ${name}`);
    return folder;
  };
  const app = () => folderNamed('app');
  const apiFolder = () => folderNamed('api');
  const serverFile = () => join(apiFolder().uri.fsPath, 'src', 'server.ts');
  const mathFile = () => join(app().uri.fsPath, 'math.ts');
  const fromView: ExtensionToWebview[] = [];
  let listening: { dispose(): void } | undefined;
  let serverBefore = '';
  let mathBefore = '';

  /** Opens a file of the workspace in an editor, as the user clicking it would. */
  async function openEditor(path: string): Promise<void> {
    await vscode.window.showTextDocument(vscode.Uri.file(path));
  }

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

  before(() => {
    api = suite.api;
    listening = api.onViewMessage((m) => fromView.push(m));
    serverBefore = readFileSync(serverFile(), 'utf8');
    mathBefore = readFileSync(mathFile(), 'utf8');
  });
  after(() => listening?.dispose());
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    writeFileSync(serverFile(), serverBefore);
    writeFileSync(mathFile(), mathBefore);
  });

  it('offers both folders to the header picker, and a new chat follows the active editor', async () => {
    const { folders } = api.chatFolders();
    assert.deepEqual(
      folders.map((f) => [f.name, f.path]),
      [
        ['app', app().uri.fsPath],
        ['api', apiFolder().uri.fsPath],
      ],
    );
    await openEditor(serverFile());
    await until(() => api.chatFolders().current === apiFolder().uri.toString(), 'the chat to follow the editor into api');
    await openEditor(mathFile());
    await until(() => api.chatFolders().current === app().uri.toString(), 'the chat to follow the editor back into app');
  });

  it('a chat started from an editor in the second folder reads and edits that folder by relative paths, and stays there', async () => {
    await openEditor(serverFile());
    fake.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { file_path: 'src/server.ts' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { file_path: 'src/server.ts', old_content: 'export const PORT = 8080;', new_content: 'export const PORT = 9090;' } }] },
      { text: 'The server listens on 9090 now.' },
    );
    const result = await api.send('move the server to port 9090');
    assert.equal(result?.status, 'completed');
    assert.match(toolResults(fake.requests[1]!)[0]!.content, /export function route/);
    assert.match(readFileSync(serverFile(), 'utf8'), /export const PORT = 9090;/);
    assert.equal(existsSync(join(app().uri.fsPath, 'src', 'server.ts')), false, 'nothing was written into the first folder');
    // The system prompt names the folder the agent works in.
    assert.ok(JSON.stringify(fake.requests[0]!.body).includes(apiFolder().uri.fsPath), 'the agent works in api');
    // A conversation under way keeps its folder while the user opens files elsewhere.
    await openEditor(mathFile());
    assert.equal(api.chatFolders().current, apiFolder().uri.toString());
  });

  it("mentions complete across both folders (the other folder's files with its name first) and attach another folder's file", async () => {
    await openEditor(serverFile());
    await until(() => api.chatFolders().current === apiFolder().uri.toString(), 'the chat in api');
    const all = (await complete('')).map((c) => c.target);
    assert.ok(all.includes('src/server.ts'), `the chat folder's file as it is: ${all.join(', ')}`);
    assert.ok(all.includes('app/math.ts'), `the other folder's file with its name first: ${all.join(', ')}`);
    assert.deepEqual((await complete('app/mat'))[0], { target: 'app/math.ts', kind: 'file' });
    fake.enqueue({ text: 'It exports PI, add and subtract.' });
    const result = await api.send('what does @app/math.ts export?');
    assert.equal(result?.status, 'completed');
    assert.match(lastUserText(fake.requests[0]!), /<file path="app\/math\.ts">[\s\S]*export function subtract/);
  });

  it('the other folder is readable by absolute path, but never edited from this chat', async () => {
    await openEditor(serverFile());
    fake.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { file_path: mathFile() } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { file_path: mathFile(), old_content: 'export const PI = 3.14159;', new_content: 'export const PI = 3;' } }] },
      { text: 'I could read it but not change it.' },
      // The failed edit's reminder asks once more.
      { text: 'The edit is refused there: it is outside this chat folder.' },
    );
    const turn = api.send('look at the app folder math and change PI');
    // A file outside the chat's folder is asked about (auto approval does not cover it); even allowed, the edit is refused.
    const pending = () => api.transcript().find((e): e is ChatEntryOf<'approval'> => e.kind === 'approval' && e.state === 'pending');
    await until(() => pending() !== undefined, 'the approval card for the edit outside the chat folder');
    assert.deepEqual(api.answer({ type: 'answerApproval', id: pending()!.id, decision: { action: 'allow' } }), { ok: true });
    const result = await turn;
    assert.equal(result?.status, 'completed', JSON.stringify(api.transcript().slice(-4)).slice(0, 3000));
    // The read answered with the file; the edit's refusal reached the model (as the failed call's report).
    assert.match(toolResults(fake.requests[1]!)[0]!.content, /export function subtract/);
    const told = fake.requests.slice(2).map((r) => JSON.stringify(r.body?.messages?.at(-1) ?? ''));
    assert.ok(told.some((m) => /edit_file .*math\.ts.* is outside the workspace/.test(m)), told.join('\n').slice(0, 2000));
    assert.equal(readFileSync(mathFile(), 'utf8'), mathBefore);
  });

  it('the header picker switches folders: the conversation under way becomes a new chat in the picked folder, and the chat says so', async () => {
    await openEditor(serverFile());
    fake.enqueue({ text: 'Hello from api.' });
    await api.send('hi');
    assert.equal(api.chatFolders().current, apiFolder().uri.toString());
    fromView.length = 0;
    api.fromView({ type: 'pickFolder', id: app().uri.toString() });
    await until(() => api.chatFolders().current === app().uri.toString(), 'the chat to move to app');
    const entries = api.transcript();
    assert.equal(entries.some((e) => e.kind === 'user'), false, 'the old conversation left the chat');
    const notice = entries.find((e) => e.kind === 'notice');
    assert.match(notice?.kind === 'notice' ? notice.text : '', /New chat in app: OpenDev now works in .*app/);
    // Picked: it holds, even with an editor of api in front.
    fake.reset();
    fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }] }, { text: 'Read it.' });
    const result = await api.send('read math.ts');
    assert.equal(result?.status, 'completed');
    assert.match(toolResults(fake.requests[1]!)[0]!.content, /export function subtract/);
  });
});
