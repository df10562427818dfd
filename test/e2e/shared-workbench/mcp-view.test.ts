import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeScreenshot, storeApiKey, workbenchSuite, type E2eHost, type Workbench } from '../host';
import { FakeProvider } from '../../fixtures/fake-provider';

const repo = join(__dirname, '../../../..');

/**
 * The "MCP Servers" view as a user meets it: a server from the project's .mcp.json appears when the
 * file is written, its inline Connect starts it (state icon, tool count), expanding it lists its
 * tools, and its context menu disables it.
 */
describe('MCP servers view (end to end)', function () {
  this.timeout(240_000);
  const fake = new FakeProvider();
  const suite = workbenchSuite(fake, { shared: true });
  let host: E2eHost;
  let wb: Workbench;

  before(async () => {
    ({ host, wb } = suite);
    await storeApiKey(host, wb.page, 'sk-e2e-mcp-view');
  });

  it('shows the .mcp.json server, connects it inline, lists its tools and disables it from its menu', async () => {
    const page = wb.page;
    await host.runCommand(page, 'OpenDev: Focus on MCP Servers View');
    const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'MCP Servers' }) });
    await pane.getByText('No MCP servers are configured').waitFor();

    writeFileSync(join(wb.workspace, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: join(repo, 'node_modules/.bin/mcp-server-everything') } } }));
    const row = pane.locator('.monaco-list-row', { hasText: 'everything' });
    await row.waitFor();
    assert.equal(await row.locator('.codicon-circle-large-outline').count(), 1, 'stopped');

    await row.hover();
    await row.locator('.action-label[aria-label="Connect"]').click();
    await row.getByText(/stdio · \d+ tools/).waitFor();
    assert.equal(await row.locator('.codicon-pass-filled').count(), 1, 'running');
    await wb.screenshot('mcp-view-running');

    await row.click(); // expands: the server's tools
    await pane.locator('.monaco-list-row', { hasText: 'echo' }).first().waitFor();
    await wb.screenshot('mcp-view-tools');
    await readmeScreenshot(host, wb, 'mcp-view');

    await row.click({ button: 'right' });
    // The workbench's menu acts on a highlighted item and Enter (a synthetic click can fall between its mouse events).
    const disable = page.locator('.monaco-menu .action-label', { hasText: 'Disable' });
    assert.deepEqual(await page.locator('.monaco-menu .action-label').allTextContents().then((t) => t.map((x) => x.trim()).filter(Boolean)), ['Disconnect', 'Test', 'Disable']);
    await disable.hover();
    await page.keyboard.press('Enter');
    await row.locator('.codicon-circle-slash').waitFor();
    assert.equal(await pane.locator('.monaco-list-row', { hasText: 'echo' }).count(), 0, 'a disabled server shows no tools');
    await wb.screenshot('mcp-view-disabled');
  });
});
