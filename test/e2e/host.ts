import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';

/** The typed face of test/host/e2e.mjs (plain JS, loaded with import()). */
export interface Workbench {
  page: Page;
  /** The workspace folder the workbench opened (a fresh copy of the sample workspace). */
  workspace: string;
  close(): Promise<void>;
  screenshot(name: string): Promise<string>;
}

export interface E2eHost {
  openWorkbench(options: { userSettings?: Record<string, unknown> }): Promise<Workbench>;
  runCommand(page: Page, title: string): Promise<void>;
  findFrame(page: Page, predicate: (frame: Frame) => Promise<boolean>, timeoutMs?: number): Promise<Frame>;
}

const repo = join(__dirname, '../../..');

export async function loadE2eHost(): Promise<E2eHost> {
  return (await import(join(repo, 'test/host/e2e.mjs'))) as E2eHost;
}

/**
 * "OpenDev: Set API Key" from the palette for the current provider: the command asks which provider
 * first (the current one, OpenAI, is focused at the top), then takes the key in a password box.
 */
export async function storeApiKey(host: E2eHost, page: Page, key: string): Promise<void> {
  await host.runCommand(page, 'OpenDev: Set API Key');
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'OpenAI' }).waitFor({ timeout: 20_000 });
  await page.keyboard.press('Enter');
  const box = page.locator('.quick-input-widget input[type="password"]');
  await box.waitFor({ timeout: 20_000 });
  await box.fill(key);
  await box.press('Enter');
  await box.waitFor({ state: 'hidden' });
}
