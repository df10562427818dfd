import * as assert from 'node:assert/strict';
import { WebviewToExtensionSchema } from '../../../src/shared/protocol';
import { buildChatView, sendToView, viewSnapshot, type ChatViewPage } from '../../helpers/chat-view-page';

// Browser globals inside page callbacks (this file is typechecked without the DOM lib).
declare const window: any;

/** The setup card's offers as the chat view draws them (the production build, in Chromium under its CSP). */
describe('the setup card in the chat view', function () {
  this.timeout(180_000);
  let chatView: ChatViewPage;
  before(async () => (chatView = await buildChatView()));
  after(() => chatView?.close());

  const card = (offers?: unknown[]) => ({
    kind: 'setup',
    id: 'setup',
    provider: 'openai',
    title: 'Connect OpenDev to OpenAI',
    text: 'OpenDev needs an API key for OpenAI to reach the model.',
    ...(offers ? { offers } : {}),
  });

  it('shows each offer first, as a button whose click sends only its id; the key button follows, secondary', async () => {
    const page = await chatView.open();
    await sendToView(page, viewSnapshot([card([{ id: 'local-server:http://127.0.0.1:11434/v1', label: 'Use Ollama (llama3.1:8b)', detail: 'Ollama answers at http://127.0.0.1:11434/v1' }])]));
    const buttons = page.locator('.entry.setup vscode-button');
    await buttons.first().waitFor();
    assert.deepEqual(await buttons.evaluateAll((els: any[]) => els.map((el) => [el.getAttribute('data-action'), el.textContent, el.hasAttribute('secondary')])), [
      ['useOffer', 'Use Ollama (llama3.1:8b)', false],
      ['setApiKey', 'Set API Key', true],
      ['chooseProvider', 'Choose Provider', true],
    ]);
    assert.equal(await buttons.first().getAttribute('title'), 'Ollama answers at http://127.0.0.1:11434/v1');
    await buttons.first().click();
    const posted = await page.evaluate(() => window.posted.filter((m: any) => m.type === 'action'));
    assert.deepEqual(posted, [{ type: 'action', action: 'useOffer', offer: 'local-server:http://127.0.0.1:11434/v1' }]);
    assert.ok(WebviewToExtensionSchema.safeParse(posted[0]).success, 'the extension accepts it');
    await page.close();
  });

  it('without offers, the key is the first, primary button, as before', async () => {
    const page = await chatView.open();
    await sendToView(page, viewSnapshot([card()]));
    const buttons = page.locator('.entry.setup vscode-button');
    await buttons.first().waitFor();
    assert.deepEqual(await buttons.evaluateAll((els: any[]) => els.map((el) => [el.getAttribute('data-action'), el.hasAttribute('secondary')])), [
      ['setApiKey', false],
      ['chooseProvider', true],
    ]);
    await page.close();
  });
});
