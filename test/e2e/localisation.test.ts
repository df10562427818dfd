import * as assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { loadE2eHost, type E2eHost, type Workbench } from './host';

// The page's own global, for the function evaluated in it (this project's Node types have no DOM).
declare const document: { documentElement: { lang: string } };

/**
 * OpenDev in Simplified Chinese (issue 17, item 8): the workbench started with zh-cn as VS Code's
 * display language (test/host/vscode-server.mjs, displayLanguagePack: offline there is no real
 * language pack, so VS Code's own strings stay English). What OpenDev shows comes from its own
 * translations: the command titles in the palette (package.nls.zh-cn.json), the chat page and the
 * first-run card the extension words (l10n/bundle.l10n.zh-cn.json).
 */
describe('OpenDev in Simplified Chinese (end to end)', function () {
  this.timeout(300_000);
  let host: E2eHost | undefined;
  let wb: Workbench | undefined;

  before(async () => {
    host = await loadE2eHost();
    // No key stored: the chat opens on the first-run card.
    wb = await host.openWorkbench({ locale: 'zh-cn', userSettings: { 'opendev.thinkingLevel': 'off' } });
  });

  after(async () => {
    await wb?.close();
  });

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.screenshot(`failed-${this.currentTest.title.replace(/\W+/g, '-')}`);
  });

  it('finds the commands by their Chinese titles, and the chat and its first-run card speak Chinese', async () => {
    const { page } = wb!;
    // The palette lists the command as "category: title", both from package.nls.zh-cn.json.
    await host!.runCommand(page, 'OpenDev: 新建聊天');
    // The chat's input by its Chinese accessible name; the page says its language.
    const chat: Frame = await host!.findFrame(page, async (f) => (await f.locator('vscode-textarea[aria-label="询问 OpenDev"]').count()) > 0);
    assert.equal(await chat.evaluate(() => document.documentElement.lang), 'zh-cn');
    await chat.locator('vscode-button#send', { hasText: '发送' }).waitFor();
    await chat.locator('#mode', { hasText: '普通模式' }).waitFor();
    // The chip's tooltip is a translation with a placeholder: the Alt+M key filled into the Chinese sentence.
    const modeTitle = await chat.locator('#mode').getAttribute('title');
    assert.match(modeTitle ?? '', /^普通模式：OpenDev 读取、编辑并运行命令（需经你批准）。单击或按 (Alt\+M|⌥M) 切换。$/);
    // Worded by the extension (vscode.l10n.t), rendered by the webview: the card of a first run.
    await chat.locator('.setup-title', { hasText: '将 OpenDev 连接到 OpenAI' }).waitFor();
    await chat.locator('.setup-text', { hasText: 'OpenDev 需要 OpenAI 的 API 密钥才能访问模型' }).waitFor();
    // No English left where a translation exists: the input's placeholder too (a property of the element, not an attribute).
    const placeholder = await chat.locator('vscode-textarea#input').evaluate((el) => (el as unknown as { placeholder?: string }).placeholder);
    assert.match(placeholder ?? '', /^询问 OpenDev…/);
    await wb!.screenshot('localisation-zh-cn-chat');
    // A command another branch added after the first translation (Show Logs) is found by its Chinese title too.
    await host!.runCommand(page, 'OpenDev: 显示日志');
  });
});
