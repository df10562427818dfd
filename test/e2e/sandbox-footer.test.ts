import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { chatSuite } from './host';
import { FakeProvider, lastUserText } from '../fixtures/fake-provider';

/**
 * The chat footer says whether the agent's commands run in the OS sandbox: "sandboxed" (bubblewrap
 * is installed on these machines and in CI), with what that means in its tooltip.
 */
describe('chat footer: the command sandbox (end to end)', function () {
  this.timeout(180_000);
  const fake = new FakeProvider({ responder: (req) => ({ text: `echo: ${lastUserText(req)}` }) });
  let chat: Frame;
  // The suites run with OPENDEV_SANDBOX=0 (for the text rules' tests); this one runs with the sandbox on.
  const suite = chatSuite(fake, { apiKey: 'sk-e2e-sandbox', env: { OPENDEV_SANDBOX: '1' } });
  before(() => {
    ({ chat } = suite);
  });

  it('shows "sandboxed" once the chat has an agent, and says what it means on hover', async () => {
    const input = chat.locator('vscode-textarea[aria-label="Ask OpenDev"] textarea');
    await input.fill('hello');
    await input.press('Enter');
    await chat.locator('.entry.assistant').filter({ hasText: 'echo: hello' }).waitFor();
    const footer = chat.locator('#sandbox');
    await footer.filter({ hasNotText: 'sandbox starting' }).waitFor({ state: 'visible' });
    const title = (await footer.getAttribute('title')) ?? '';
    assert.equal(await footer.textContent(), 'sandboxed', `commands must run sandboxed here: ${title}`);
    assert.match(title, /^Commands run in the sandbox/);
    await suite.wb.screenshot('chat-footer-sandboxed');
  });
});
