import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionToWebview } from '../../src/shared/protocol';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { lastUserText } from '../fixtures/fake-provider';
import { clearSettings, config, fakeProviderSuite, until, useSettings } from './support';

/**
 * The palette actions, the status bar item and the provider setup inside a real VS Code: real
 * editors, selections and TypeScript diagnostics; the model is the fake provider behind the real
 * openai SDK.
 */
describe('palette actions, status bar and provider setup in VS Code', function () {
  this.timeout(120_000);
  const suite = fakeProviderSuite({ model: undefined, contextWindow: undefined });
  const { fake } = suite;
  let api: OpenDevApi;
  let folder: vscode.Uri;

  async function openMath(): Promise<vscode.TextEditor> {
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, 'math.ts'));
    return vscode.window.showTextDocument(doc);
  }

  before(() => {
    api = suite.api;
    folder = vscode.workspace.workspaceFolders![0]!.uri;
  });
  after(async () => {
    if (api.mode() === 'plan') await vscode.commands.executeCommand('opendev.switchMode');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('registers every command the manifest contributes', async () => {
    const ext = vscode.extensions.getExtension('opendev.opendev')!;
    const contributed = (ext.packageJSON.contributes.commands as { command: string }[]).map((c) => c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const id of ['opendev.explainSelection', 'opendev.fixProblems', 'opendev.addSelectionToChat', 'opendev.selectProvider', 'opendev.openChat']) {
      assert.ok(contributed.includes(id), `${id} is in the manifest`);
    }
    assert.deepEqual(contributed.filter((id) => !registered.has(id)), [], 'every contributed command runs');
  });

  /** Closes the side bar, so the chat view is out of sight. */
  async function hideChat(): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await until(() => !api.chatView().visible, 'the chat to be hidden');
  }

  it('New Chat forgets the conversation and shows the chat', async () => {
    fake.enqueue({ text: 'Hello.' });
    await api.send('hello');
    await api.sessionsSettled();
    assert.ok(api.sessionId());
    await hideChat();
    await vscode.commands.executeCommand('opendev.newChat');
    assert.deepEqual(api.transcript(), []);
    assert.equal(api.sessionId(), undefined, 'the next message starts a new session');
    await until(() => api.chatView().visible, 'the chat to be shown');
  });

  it('Open Chat (also the status bar item’s click) shows the chat with its input focused', async () => {
    await hideChat();
    await vscode.commands.executeCommand('opendev.openChat');
    await until(() => api.chatView().visible && api.chatView().inputFocused, 'the chat input to have the focus');
  });

  it('Show Chat History opens the history inside the chat, which lists the project’s sessions', async () => {
    fake.enqueue({ text: 'Noted.' });
    await api.send('remember the history test');
    await api.sessionsSettled();
    const id = api.sessionId()!;
    await hideChat();
    const lists: Array<Extract<ExtensionToWebview, { type: 'sessions' }>> = [];
    const listening = api.onViewMessage((m) => {
      if (m.type === 'sessions') lists.push(m);
    });
    try {
      await vscode.commands.executeCommand('opendev.showHistory');
      // The chat opens its history panel, which asks for the sessions: the answer names this chat's.
      await until(() => lists.some((l) => l.items.some((s) => s.id === id && s.firstPrompt === 'remember the history test')), 'the list the history view asked for');
      assert.equal(lists.at(-1)!.currentId, id, 'the current chat is marked');
      assert.equal(api.chatView().visible, true);
    } finally {
      listening.dispose();
    }
  });

  it('Explain Selection sends the selected code with its path and lines, and the editor keeps the focus', async () => {
    const editor = await openMath();
    editor.selection = new vscode.Selection(2, 0, 5, 0); // lines 3-5: add()
    fake.enqueue({ text: 'add() returns the sum of its two arguments.' });
    await vscode.commands.executeCommand('opendev.explainSelection');

    assert.equal(fake.requests.length, 1);
    const prompt = lastUserText(fake.requests[0]!);
    assert.match(prompt, /^Explain this code from `math\.ts` \(lines 3-5\)/);
    assert.ok(prompt.includes('```typescript\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```'), prompt);
    assert.deepEqual(api.transcript().map((e) => e.kind), ['user', 'assistant'], 'the chat shows the request and the answer');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, editor.document.uri.fsPath, 'the editor is still the active one');
  });

  it('Explain Selection without a selection says what to do and sends nothing', async () => {
    const editor = await openMath();
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    await vscode.commands.executeCommand('opendev.explainSelection');
    assert.equal(fake.requests.length, 0);
    assert.deepEqual(api.transcript(), []);
  });

  it('Fix Problems in File sends the TypeScript errors of the active file with their lines', async () => {
    const uri = vscode.Uri.joinPath(folder, 'broken.ts');
    await vscode.workspace.fs.writeFile(uri, Buffer.from('export const count: number = "three";\nexport const ok = 1;\n'));
    try {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      // The built-in TypeScript server checks the file on its own time.
      await until(() => vscode.languages.getDiagnostics(uri).some((d) => d.severity === vscode.DiagnosticSeverity.Error), 'TypeScript to report the error', 90_000);
      fake.enqueue({ text: 'count is now a number.' });
      await vscode.commands.executeCommand('opendev.fixProblems');

      assert.equal(fake.requests.length, 1);
      const prompt = lastUserText(fake.requests[0]!);
      assert.match(prompt, /^Fix the problems VS Code reports in `broken\.ts`:/);
      assert.match(prompt, /^- line 1, column \d+: error \(ts 2322\): Type 'string' is not assignable to type 'number'\.$/m);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.fs.delete(uri);
    }
  });

  it('Fix Problems in File on a clean file says so and sends nothing', async () => {
    await openMath();
    await vscode.commands.executeCommand('opendev.fixProblems');
    assert.equal(fake.requests.length, 0);
    assert.deepEqual(api.transcript(), []);
  });

  it('Add Selection to Chat puts a reference to the selection in the chat input without sending it', async () => {
    const editor = await openMath();
    editor.selection = new vscode.Selection(0, 0, 0, 26); // line 1: export const PI = 3.14159;
    await vscode.commands.executeCommand('opendev.addSelectionToChat');
    await until(() => api.composerText().includes('export const PI = 3.14159;'), 'the reference in the chat input');
    assert.match(api.composerText(), /`math\.ts` line 1:\n```typescript\nexport const PI = 3\.14159;\n```\n$/);
    assert.equal(fake.requests.length, 0, 'nothing is sent');
    assert.deepEqual(api.transcript(), []);
  });

  it('the status bar item shows the model, the mode and the context, and follows a turn, Switch Mode and the model setting', async () => {
    await useSettings({ contextWindow: 40_000 });
    await until(() => api.statusBar().tooltip.includes('40,000-token window'), 'the window from opendev.contextWindow');
    let bar = api.statusBar();
    assert.equal(bar.visible, true, 'shown: a folder is open');
    assert.equal(bar.text, '$(hubot) gpt-4.1 · normal');
    assert.match(bar.tooltip, new RegExp(`^Provider: OpenAI at ${fake.openaiBaseUrl.replace(/[.]/g, '\\.')}$`, 'm'));
    assert.match(bar.tooltip, /^Model: gpt-4\.1$/m);

    // The provider reports 16,800 prompt tokens for the first call; the meter reads them (plus the
    // small tool result) before the second: 42% of the 40k window.
    const usage = { promptTokens: 16_800, outputTokens: 12 };
    fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { file_path: 'math.ts' } }], usage }, { text: 'It exports add.', usage });
    await api.send('what does math.ts export?');
    const context = api.context();
    assert.ok(context && context.promptTokens > 0, 'the turn produced a context reading');
    const pct = Math.round(context.pressure * 100);
    assert.equal(pct, 42, JSON.stringify(context));
    bar = api.statusBar();
    assert.equal(bar.text, `$(hubot) gpt-4.1 · normal · ${pct}%`);
    assert.match(bar.tooltip, new RegExp(`^Context: ${context.promptTokens.toLocaleString('en-US')} of 40,000 tokens \\(${pct}%\\)`, 'm'));
    // gpt-4.1: $2 in, $8 out per million tokens.
    assert.match(bar.tooltip, /^Cost: \$0\.0674 \(33,600 in, 24 out, 2 calls\)$/m, bar.tooltip);

    await vscode.commands.executeCommand('opendev.switchMode');
    assert.equal(api.statusBar().text, `$(hubot) gpt-4.1 · plan · ${pct}%`);
    await vscode.commands.executeCommand('opendev.switchMode');
    assert.equal(api.statusBar().text, `$(hubot) gpt-4.1 · normal · ${pct}%`);

    await useSettings({ model: 'gpt-4.1-mini' });
    await until(() => api.statusBar().text.startsWith('$(hubot) gpt-4.1-mini · normal'), 'the new model in the status bar');
    api.newChat();
    assert.equal(api.statusBar().text, '$(hubot) gpt-4.1-mini · normal', 'a new chat has no context reading yet');
    await clearSettings(['model', 'contextWindow']);
  });

  it('Select Model lists the catalogue\'s models with context size and price, and writes opendev.model', async () => {
    await clearSettings(['model']);
    const picking = vscode.commands.executeCommand('opendev.selectModel');
    await until(() => api.modelPick() !== undefined, 'the model quick pick');
    const rows = api.modelPick()!;
    const current = rows.findIndex((r) => r.current);
    assert.equal(rows[current]?.label, 'gpt-4.1', 'the default model is marked current');
    assert.match(rows[current]!.detail, /^1M-token context · \$2\.00 in \/ \$8\.00 out per 1M tokens/);
    assert.ok(rows.length > 4, rows.map((r) => r.label).join());
    for (const row of rows.slice(0, -1)) assert.match(row.detail, /-token context · (\$[\d.]+ in \/ \$[\d.]+ out per 1M tokens|price unknown)/, row.label);
    assert.equal(rows.at(-1)!.model, undefined, 'the last row takes a custom model id');

    // The user moves one row down from the current model and presses Enter.
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await picking;
    assert.equal(config().get('model'), rows[current + 1]!.label);
    assert.equal(api.modelPick(), undefined, 'the pick is closed');
    await clearSettings(['model']);
  });

  it('Select Model lists the models an OpenAI-compatible server serves (Ollama: context window, no-tools flag), keeps the list, and writes the one picked', async () => {
    fake.servedModels = ['alpha-coder', 'beta-chat', 'gamma-coder'];
    fake.ollama = { 'alpha-coder': { contextLength: 65_536 }, 'beta-chat': { contextLength: 8192, capabilities: ['completion'] }, 'gamma-coder': { numCtx: 32_768, contextLength: 131_072 } };
    await useSettings({ provider: 'openai-compatible', model: 'alpha-coder' });
    try {
      const picking = vscode.commands.executeCommand('opendev.selectModel');
      await until(() => api.modelPick()?.some((r) => r.model === 'gamma-coder') === true, 'the server\'s models in the quick pick');
      const rows = api.modelPick()!;
      assert.deepEqual(rows.map((r) => r.model ?? (r.refresh ? 'refresh' : 'custom')), ['alpha-coder', 'beta-chat', 'gamma-coder', 'refresh', 'custom']);
      assert.equal(rows[0]!.current, true);
      assert.match(rows[0]!.detail, /^66k-token context \(from the server\)/);
      assert.match(rows[2]!.detail, /^33k-token context \(from the server\)/, "the Modelfile's num_ctx");
      assert.equal(rows[1]!.noTools, true, 'beta-chat cannot call tools');
      assert.match(rows[1]!.description ?? '', /no tool calling/);
      assert.equal(fake.listingRequests.filter((r) => r.path === '/v1/models').length, 1);

      // The user moves one row down from the current model (to the one without tools) and presses Enter.
      // The server's rows replaced the first ones after the pick opened: the focus is on the current
      // model once the workbench has drawn them, and only then does one step down reach beta-chat.
      await until(() => api.modelPick()?.find((r) => r.active)?.model === 'alpha-coder', 'the focus on the current model in the drawn list');
      // The extension host sends a pick's new rows to the workbench on a timer of its own, while a
      // command goes at once: let that timer run first, so the step is taken in the list the server's
      // rows made (in the fresh-clone run, under load, the step landed in the old list and was undone).
      await new Promise((resolve) => setTimeout(resolve, 0));
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await until(() => api.modelPick()?.find((r) => r.active)?.model === 'beta-chat', 'the focus one row down');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await picking;
      assert.equal(config().get('model'), 'beta-chat');
      assert.equal(api.modelPick(), undefined, 'the pick is closed');
      // Its first message is refused before anything reaches the server, saying why.
      await api.send('fix the bug in math.ts');
      const refused = api.transcript().at(-1);
      assert.equal(refused?.kind, 'error');
      assert.match(refused?.kind === 'error' ? refused.text : '', /beta-chat cannot call tools/);
      assert.equal(fake.requests.length, 0);

      // Opened again: the list kept for this server, no new request.
      const again = vscode.commands.executeCommand('opendev.selectModel');
      await until(() => api.modelPick()?.some((r) => r.model === 'gamma-coder') === true, 'the kept list');
      assert.equal(api.modelPick()!.find((r) => r.current)?.model, 'beta-chat');
      assert.equal(fake.listingRequests.filter((r) => r.path === '/v1/models').length, 1);
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await again;
    } finally {
      await useSettings({ provider: 'openai' });
      await clearSettings(['model']);
    }
  });

  it('Select Model with a model id sets it without asking', async () => {
    await vscode.commands.executeCommand('opendev.selectModel', 'gpt-4.1-nano');
    assert.equal(config().get('model'), 'gpt-4.1-nano');
    await clearSettings(['model']);
  });

  it('Select Provider writes opendev.provider, and a model the new provider does not serve goes back to its default', async () => {
    await useSettings({ model: 'gpt-4.1-nano' });
    try {
      await vscode.commands.executeCommand('opendev.selectProvider', 'anthropic');
      assert.equal(config().get('provider'), 'anthropic');
      assert.equal(config().inspect('model')?.globalValue, undefined, 'gpt-4.1-nano is not an Anthropic model');
      await until(() => /^\$\(hubot\) claude\S* · normal$/.test(api.statusBar().text), `the Anthropic default in the status bar, not "${api.statusBar().text}"`);
      await api.send('hello');
      assert.equal(api.transcript().at(-1)?.kind, 'setup', 'the chat asks for the Anthropic key it lacks');
      assert.equal(fake.requests.length, 0);
    } finally {
      await useSettings({ provider: 'openai' });
      await clearSettings(['model']);
    }
  });

  it('without a key the chat shows a setup card, and Set API Key refuses a key that cannot be one', async () => {
    await useSettings({ provider: 'anthropic' });
    try {
      await api.send('hello');
      const card = api.transcript().at(-1);
      assert.equal(card?.kind, 'setup');
      assert.equal(card?.kind === 'setup' && card.provider, 'anthropic');
      assert.equal(card?.kind === 'setup' && card.title, 'Connect OpenDev to Anthropic');
      assert.equal(fake.requests.length, 0);

      // The card's "Set API Key" runs this command with the card's provider.
      await vscode.commands.executeCommand('opendev.setApiKey', 'anthropic', 'sk-ant with spaces');
      api.newChat();
      await api.send('hello again');
      assert.equal(api.transcript().at(-1)?.kind, 'setup', 'the malformed key was not saved');

      await vscode.commands.executeCommand('opendev.setApiKey', 'anthropic', 'sk-ant-integration');
      fake.enqueue({ text: 'Hello from Claude.' });
      await useSettings({ baseUrl: fake.anthropicBaseUrl });
      const result = await api.send('and now?');
      assert.equal(result?.status, 'completed');
      const { authorization, 'x-api-key': apiKey } = fake.requests[0]!.headers;
      assert.match(String(apiKey ?? authorization), /sk-ant-integration$/, 'the key from Secret Storage');
    } finally {
      await vscode.commands.executeCommand('opendev.setApiKey', 'anthropic', '');
      await useSettings({ provider: 'openai', baseUrl: fake.openaiBaseUrl });
    }
  });
});
