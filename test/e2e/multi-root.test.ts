import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { FakeProvider, lastUserText, toolResults, type RecordedRequest, type ScriptedTurn } from '../fixtures/fake-provider';
import { loadE2eHost, openChat, storeApiKey, type E2eHost, type Workbench } from './host';

/** "where is the port?": read src/server.ts (relative: in the chat's folder), then say what it read. */
function respond(req: RecordedRequest): ScriptedTurn {
  const results = toolResults(req);
  if (lastUserText(req) === 'where is the port?' && results.length === 0) return { toolCalls: [{ name: 'read_file', arguments: { file_path: 'src/server.ts' } }] };
  if (results.length > 0) return { text: /PORT = 8080/.test(results[0]!.content) ? 'The port is 8080, in src/server.ts.' : 'No port found.' };
  return { text: `echo: ${lastUserText(req)}` };
}

/**
 * A two-folder workspace in the real workbench: the chat header's folder picker is shown (it is
 * not with one folder), and picking the second folder starts a new chat there, said in the chat,
 * whose tools read that folder's files by relative path.
 */
describe('multi-root workspace: the chat header folder picker (end to end)', function () {
  this.timeout(300_000);
  const fake = new FakeProvider({ responder: respond });
  let host: E2eHost;
  let wb: Workbench;
  let chat: Frame;

  before(async () => {
    await fake.start();
    host = await loadE2eHost();
    wb = await host.openWorkbench({ multiRoot: true, userSettings: { 'opendev.baseUrl': fake.openaiBaseUrl, 'opendev.thinkingLevel': 'off', 'opendev.approvalLevel': 'auto' } });
    await storeApiKey(host, wb.page, 'sk-e2e-multi-root');
    chat = await openChat(host, wb.page);
  });
  after(async () => {
    await wb?.close();
    await fake.stop();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.screenshot(`failed-${this.currentTest.title.replace(/\W+/g, '-')}`);
  });

  const picker = () => chat.locator('select#folder-picker');

  async function ask(text: string): Promise<void> {
    const input = chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
    await input.fill(text);
    await input.press('Enter');
  }

  it('shows the folder picker in the chat header with both folders, the first chosen without an editor', async () => {
    await picker().waitFor({ state: 'visible' });
    const options = await picker().locator('option').allTextContents();
    assert.deepEqual(options, ['app', 'api']);
    const chosen = await picker().evaluate((el: { selectedOptions: ArrayLike<{ textContent: string | null }> }) => el.selectedOptions[0]?.textContent);
    assert.equal(chosen, 'app');
    await wb.screenshot('multi-root-picker');
  });

  it('picking the second folder starts a new chat there, says so, and its tools read that folder', async () => {
    await ask('hello from app');
    await chat.locator('.entry', { hasText: 'echo: hello from app' }).waitFor();
    await picker().selectOption({ label: 'api' });
    await chat.locator('.entry', { hasText: /New chat in api: OpenDev now works in .*api/ }).waitFor();
    assert.equal(await chat.locator('.entry', { hasText: 'echo: hello from app' }).count(), 0, 'the conversation in app left the chat');
    await ask('where is the port?');
    await chat.locator('.entry', { hasText: 'The port is 8080, in src/server.ts.' }).waitFor();
    const chosen = await picker().evaluate((el: { selectedOptions: ArrayLike<{ textContent: string | null }> }) => el.selectedOptions[0]?.textContent);
    assert.equal(chosen, 'api');
    await wb.screenshot('multi-root-switched');
  });
});
