import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ChatEntry } from '../../src/shared/protocol';
import type { OpenDevApi } from '../../src/vscode/opendev-api';
import { FakeProvider } from '../fixtures/fake-provider';
import { activateOpenDev, clearSettings, config, until, useSettings } from './support';

/** What the fixture extension (test/fixtures/lm-extension) recorded of one request to its model. */
interface LmRequest {
  model: string;
  messages: Array<{ role: 'user' | 'assistant'; parts: Array<{ type: string; value?: string; callId?: string; name?: string; input?: unknown; content?: string }> }>;
  tools: Array<{ name: string; inputSchema: unknown }>;
}
interface LmRecord { requests: LmRequest[]; left: number; tokenCounts: number }
type Turn = { text?: string; toolCalls?: Array<{ id: string; name: string; input: object }>; error?: 'NoPermissions' | 'Blocked' | 'NotFound' };

const script = (...turns: Turn[]) => vscode.commands.executeCommand('opendevTestLm.script', turns);
const recorded = async () => (await vscode.commands.executeCommand<LmRecord>('opendevTestLm.requests'))!;
const text = (entry: ChatEntry | undefined) => (entry && 'text' in entry ? String(entry.text) : '');
const SETTINGS = ['provider', 'model', 'thinkingLevel', 'approvalLevel'];

/**
 * opendev.provider "vscode-lm" in a real VS Code (1.104+): the model is another extension's, registered
 * through the stable vscode.lm.registerLanguageModelChatProvider (the fixture extension, scripted here),
 * reached through vscode.lm.selectChatModels and LanguageModelChat.sendRequest with our tool schemas.
 */
describe("VS Code's Language Model API as the provider (vscode-lm)", () => {
  let api: OpenDevApi;
  let folder: string;
  const MATH = () => join(folder, 'math.ts');
  let original = '';

  before(async () => {
    api = await activateOpenDev();
    folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    original = readFileSync(MATH(), 'utf8');
    await vscode.commands.executeCommand('opendevTestLm.enable');
  });
  after(async () => {
    if (original) writeFileSync(MATH(), original);
    api.newChat();
    await clearSettings(SETTINGS);
    await vscode.commands.executeCommand('opendevTestLm.disable');
  });
  beforeEach(async () => {
    await useSettings({ provider: 'vscode-lm', model: 'opendev-test/scripted-1', thinkingLevel: 'off', approvalLevel: 'semi-auto' });
    api.newChat();
  });

  it('runs a whole task: reads, edits after the approval, answers; tool parts and token counts through the API', async () => {
    const models = await vscode.lm.selectChatModels({ vendor: 'opendev-test' });
    assert.deepEqual(models.map((m) => m.id), ['scripted-1'], 'the fixture model is offered by VS Code');
    await script(
      { toolCalls: [{ id: 'call-read', name: 'read_file', input: { file_path: 'math.ts' } }] },
      { text: 'Changing PI.', toolCalls: [{ id: 'call-edit', name: 'edit_file', input: { file_path: 'math.ts', old_content: 'export const PI = 3.14159;', new_content: 'export const PI = Math.PI;' } }] },
      { text: 'PI now uses Math.PI.' },
    );
    const turn = api.send('use Math.PI in math.ts');
    await until(() => api.pendingReviews().length === 1, 'the edit to wait for approval', 120_000);
    assert.equal(readFileSync(MATH(), 'utf8'), original, 'nothing is written before the approval');
    const card = api.transcript().find((e) => e.kind === 'approval');
    assert.ok(card, 'an approval card in the chat');
    assert.deepEqual(api.answer({ type: 'answerApproval', id: card.id, decision: { action: 'allow' } }), { ok: true });
    assert.equal((await turn)?.status, 'completed');

    assert.equal(readFileSync(MATH(), 'utf8'), original.replace('export const PI = 3.14159;', 'export const PI = Math.PI;'));
    assert.equal(text(api.transcript().at(-1)), 'PI now uses Math.PI.');
    const { requests, left, tokenCounts } = await recorded();
    assert.equal(left, 0);
    assert.equal(requests.length, 3);
    // Our tool schemas went as the API's tools, JSON schemas included.
    const editTool = requests[0]!.tools.find((t) => t.name === 'edit_file');
    assert.ok(editTool, 'edit_file is offered');
    assert.equal((editTool.inputSchema as { type?: string }).type, 'object');
    // The system prompt opens the first user message (the API has no system role), the task follows.
    const first = requests[0]!.messages[0]!;
    assert.equal(first.role, 'user');
    assert.match(first.parts[0]!.value ?? '', /use Math\.PI in math\.ts$/);
    assert.ok((first.parts[0]!.value ?? '').length > 500, 'the system prompt is sent too');
    // The call and its result as LanguageModelToolCallPart / LanguageModelToolResultPart, paired by id.
    const second = requests[1]!.messages;
    assert.deepEqual(second.at(-2)!.parts.find((p) => p.type === 'toolCall'), { type: 'toolCall', callId: 'call-read', name: 'read_file', input: { file_path: 'math.ts' } });
    const readResult = second.at(-1)!.parts.find((p) => p.type === 'toolResult');
    assert.equal(readResult?.callId, 'call-read');
    assert.match(readResult?.content ?? '', /export function subtract/);
    const editResult = requests[2]!.messages.at(-1)!.parts.find((p) => p.type === 'toolResult');
    assert.equal(editResult?.callId, 'call-edit');
    assert.ok(tokenCounts > 0, 'usage is counted by the model (countTokens)');
  });

  it('a model VS Code does not offer: the chat names the setting, and nothing is sent', async () => {
    await useSettings({ model: 'nobody/no-such-model' });
    await script({ text: 'never' });
    await api.send('hello');
    const last = api.transcript().at(-1);
    assert.equal(last?.kind, 'error');
    assert.match(text(last), /No language model in VS Code matches "nobody\/no-such-model" \(opendev\.model\)/);
    assert.equal((await recorded()).requests.length, 0);
  });

  for (const [error, message] of [
    ['NoPermissions', /OpenDev may not use Scripted Model \(opendev-test\)/],
    ['Blocked', /Scripted Model \(opendev-test\) refused the request: its provider blocked it/],
    ['NotFound', /Scripted Model \(opendev-test\) is not available any more/],
  ] as const) {
    it(`the model's ${error} error is a clear error card in the chat`, async () => {
      await script({ error });
      await api.send('hello');
      const last = api.transcript().at(-1);
      assert.equal(last?.kind, 'error', 'an error card, not an error page');
      assert.match(text(last), message);
      assert.equal((await recorded()).requests.length, 1);
    });
  }

  it('the setup card offers the language model first (before a local server) when no key is set, and choosing it needs no key', async () => {
    // A local server that answers too (the OPENDEV_LOCAL_SERVERS seam, as in first-run): the language model still comes first.
    const ollama = new FakeProvider();
    await ollama.start();
    ollama.servedModels = ['llama3.1:8b'];
    process.env.OPENDEV_LOCAL_SERVERS = `Ollama=${ollama.openaiBaseUrl}`;
    try {
      await clearSettings(['provider', 'model']);
      await vscode.commands.executeCommand('opendev.setApiKey', 'openai', '');
      api.newChat();
      const offersOf = (e: ChatEntry | undefined) => (e?.kind === 'setup' ? (e.offers ?? []) : []);
      await until(() => offersOf(api.transcript()[0]).length === 2, 'the setup card with both offers');
      const [first, second] = offersOf(api.transcript()[0]);
      assert.equal(first!.label, 'Use Scripted Model (opendev-test)');
      assert.equal(second!.label, 'Use Ollama (llama3.1:8b)');

      // The card's first button, as the webview sends it: the offer's id only.
      api.fromView({ type: 'action', action: 'useOffer', offer: first!.id });
      await until(() => config().get('provider') === 'vscode-lm', 'the offer to switch the provider');
      await script({ text: 'Hello from the scripted model.' });
      await until(() => api.transcript().length === 0 || api.transcript()[0]?.kind !== 'setup', 'the setup card to go');
      await api.send('hello');
      assert.equal(text(api.transcript().at(-1)), 'Hello from the scripted model.');
      assert.equal(ollama.requests.length, 0, 'the local server was only offered');
    } finally {
      delete process.env.OPENDEV_LOCAL_SERVERS;
      await ollama.stop();
    }
  });
});
