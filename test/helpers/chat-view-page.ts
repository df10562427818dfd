import * as assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { locateChromium } from '../../src/core/web/browser';

// Browser globals inside page callbacks (this file is typechecked without the DOM lib).
declare const window: any;

const repo = join(__dirname, '../../..');
const NONCE = 'dGVzdC1ub25jZQ==';

/** The view's page under its CSP (scripts and styles by nonce only); what the view posts is kept in `window.posted`. */
const PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'nonce-${NONCE}'; script-src 'nonce-${NONCE}'">
<link rel="stylesheet" href="chat.css" nonce="${NONCE}">
</head><body><main id="app" data-style-nonce="${NONCE}"></main>
<script nonce="${NONCE}">window.posted = []; window.acquireVsCodeApi = () => ({ postMessage(m) { window.posted.push(m); }, getState: () => undefined, setState() {} });</script>
<script nonce="${NONCE}" src="webview.js"></script>
</body></html>`;

/** The chat view as the .vsix ships it (the production build), in headless Chromium. */
export interface ChatViewPage {
  /** The folder with the built scripts. */
  readonly dir: string;
  /** A fresh page with the view started, without errors (its CSP included). */
  open(): Promise<Page>;
  close(): Promise<void>;
}

export async function buildChatView(): Promise<ChatViewPage> {
  const dir = mkdtempSync(join(tmpdir(), 'opendev-webview-'));
  const esbuild = await import('esbuild');
  const { webviewBuilds } = (await import(pathToFileURL(join(repo, 'scripts/webview-builds.mjs')).href)) as {
    webviewBuilds(options: { production: boolean; outdir: string }): Array<Record<string, unknown>>;
  };
  await Promise.all(webviewBuilds({ production: true, outdir: dir }).map((options) => esbuild.build({ ...options, absWorkingDir: repo })));
  writeFileSync(join(dir, 'index.html'), PAGE);
  copyFileSync(join(repo, 'media/chat.css'), join(dir, 'chat.css'));
  const chromium = locateChromium({ env: process.env });
  if (!chromium.found) throw new Error(chromium.reason);
  const { chromium: launcher } = await import('playwright-core');
  const browser: Browser = await launcher.launch({ executablePath: chromium.path, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  return {
    dir,
    async open() {
      const page = await browser.newPage();
      page.setDefaultTimeout(90_000);
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      await page.goto(pathToFileURL(join(dir, 'index.html')).href);
      await page.waitForSelector('#transcript', { state: 'attached' });
      assert.deepEqual(errors, [], 'the view starts without errors (its CSP included)');
      return page;
    },
    async close() {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A message from the extension to the view. */
export const sendToView = (page: Page, message: unknown) => page.evaluate((m: unknown) => window.postMessage(m, '*'), message);

/** The view's whole state, as the extension sends it when the view (re)starts. */
export const viewSnapshot = (entries: unknown[]) => ({ type: 'snapshot', conversation: 0, entries, busy: false, todos: [], mode: 'normal', thinkingLevel: 'medium' });
