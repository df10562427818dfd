// Helpers for end-to-end tests (plain-Node mocha tests driving the real workbench through Playwright):
// a VS Code server with the extension under development, its workbench in headless Chromium, and a
// few ways to reach into it (command palette, webview frames, screenshots).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { copySampleWorkspace, ensureVSCodeServer, launchBrowser, makeTwoFolderWorkspace, repoRoot, startVSCodeServer } from './vscode-server.mjs';

export { restoreSampleWorkspace } from './vscode-server.mjs';

export const screenshotDir = join(repoRoot, 'test', 'e2e', 'screenshots');
/**
 * The one limit of every wait on the UI (an element, a frame, a function) that names none: a busy
 * machine makes the workbench slow, not wrong. Waits that retry (the palette) use short steps within it.
 */
export const UI_WAIT_MS = 60_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts a server and opens the workbench on `workspace` (default: a fresh copy of the sample workspace)
 * with the extension under development loaded, and waits until the workbench is shown.
 * @param {{ workspace?: string, multiRoot?: boolean, env?: Record<string,string>, userSettings?: object, extensionPath?: string, locale?: string }} [options]
 *   env reaches the extension host (e.g. a fake provider's base URL); extensionPath defaults to
 *   OPENDEV_EXTENSION_PATH or the repo root; locale is VS Code's display language (e.g. "zh-cn")
 * @returns {Promise<{ page: import('playwright-core').Page, browser: import('playwright-core').Browser,
 *   server: Awaited<ReturnType<typeof startVSCodeServer>>, workspace: string,
 *   close: () => Promise<void>, screenshot: (name: string) => Promise<string> }>}
 */
export async function openWorkbench({ workspace, multiRoot = false, env = {}, userSettings = {}, extensionPath, locale } = {}) {
  const serverRoot = await ensureVSCodeServer();
  const tmp = mkdtempSync(join(tmpdir(), 'opendev-e2e-'));
  let server, browser;
  const close = async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    // multiRoot: a two-folder .code-workspace (app, the sample; api, a second project); `workspace` is its file.
    const twoFolders = multiRoot ? makeTwoFolderWorkspace(tmp) : undefined;
    workspace = twoFolders ? twoFolders.workspaceFile : workspace ? resolve(workspace) : copySampleWorkspace(tmp);
    // Both at once: neither needs the other until the page loads.
    const starting = [startVSCodeServer({ serverRoot, env, userSettings, dataDir: join(tmp, 'vscode'), ...(locale ? { locale } : {}) }).then((s) => (server = s)), launchBrowser().then((b) => (browser = b))];
    const failed = (await Promise.allSettled(starting)).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(UI_WAIT_MS);
    const extensionDevelopmentPath = resolve(extensionPath || process.env.OPENDEV_EXTENSION_PATH || repoRoot);
    await page.goto(server.workbenchUrl({ ...(twoFolders ? { workspaceFile: workspace } : { folder: workspace }), extensionDevelopmentPath }));
    await page.locator('.monaco-workbench').waitFor({ state: 'visible' });
    const screenshot = async (name) => {
      mkdirSync(screenshotDir, { recursive: true });
      const path = join(screenshotDir, `${name}.png`);
      // Finished, not mid-fade: a menu that just opened is drawn as the user sees it a moment later.
      await page.screenshot({ path, animations: 'disabled' });
      return path;
    };
    return { page, browser, server, workspace, close, screenshot };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Runs a command through the command palette, by its title as shown there (e.g. "OpenDev: New Chat").
 * @param {import('playwright-core').Page} page
 * @param {string} title
 * @param {number} [timeoutMs]
 */
export async function runCommand(page, title, timeoutMs = UI_WAIT_MS) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.keyboard.press('F1');
    // Enter picks the focused (first) row, so wait until the filtered list starts with our command.
    // Shortly after startup the palette may not know the extension's commands yet and does not
    // refresh an open list, and a view that takes the focus (the walkthrough ticking a step) closes
    // the palette under us: close it and ask again, within the one overall limit.
    try {
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${title}`, { timeout: 5_000 }); // F1 opens in command mode, which is the '>' prefix
      await row.waitFor({ timeout: 3000 });
      break;
    } catch (err) {
      await closeQuickInput(page);
      if (Date.now() > deadline) throw new Error(`command "${title}" not found in the command palette`, { cause: err });
      await sleep(500);
    }
  }
  await page.keyboard.press('Enter');
  // The palette closes; a command may open its own pick or input box right away (Set API Key asks
  // for the provider), so "done" is: no widget, or one that is no longer the command palette.
  await page.waitForFunction(
    () => {
      const widget = document.querySelector('.quick-input-widget');
      if (!widget || getComputedStyle(widget).display === 'none') return true;
      const box = widget.querySelector('input');
      return !box || !box.value.startsWith('>');
    },
  );
}

/**
 * Escape to a quick input (the palette, a pick) that is open; never to the view behind it, where it
 * would act (Escape takes a walkthrough back to its overview).
 * @param {import('playwright-core').Page} page
 */
export async function closeQuickInput(page) {
  if (await page.locator('.quick-input-widget').isVisible()) await page.keyboard.press('Escape');
}

/**
 * Finds the frame (webviews are iframes nested in iframes) that has `predicate`'s selector, or for which
 * `predicate(frame)` resolves true; webviews appear a few seconds after they are opened.
 * @param {import('playwright-core').Page} page
 * @param {string | ((frame: import('playwright-core').Frame) => boolean | Promise<boolean>)} predicate
 * @param {number} [timeoutMs]
 * @returns {Promise<import('playwright-core').Frame>}
 */
export async function findFrame(page, predicate, timeoutMs = UI_WAIT_MS) {
  const test = typeof predicate === 'string' ? async (f) => (await f.$(predicate)) !== null : predicate;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      try {
        if (await test(frame)) return frame;
      } catch { /* frame navigated or detached meanwhile */ }
    }
    if (Date.now() > deadline) throw new Error(`no frame matching ${typeof predicate === 'string' ? predicate : 'predicate'} after ${timeoutMs} ms`);
    await sleep(250);
  }
}
