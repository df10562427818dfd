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

/** What a suite set up by workbenchSuite works with (read inside its tests). */
export interface WorkbenchSuite {
  readonly host: E2eHost;
  readonly wb: Workbench;
}

/**
 * The e2e suites' shared setup, as mocha hooks of the describe() that calls it: the fake provider
 * started, a workbench opened with the extension pointed at it (thinking off: one model call per
 * message), a screenshot of each failing test, and all of it closed after the suite.
 */
export function workbenchSuite(fake: { openaiBaseUrl: string; start(): Promise<unknown>; stop(): Promise<unknown> }): WorkbenchSuite {
  let host: E2eHost | undefined;
  let wb: Workbench | undefined;
  before(async () => {
    await fake.start();
    host = await loadE2eHost();
    wb = await host.openWorkbench({ userSettings: { 'opendev.baseUrl': fake.openaiBaseUrl, 'opendev.thinkingLevel': 'off' } });
  });
  after(async () => {
    await wb?.close();
    await fake.stop();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await wb?.screenshot(`failed-${this.currentTest.title.replace(/\W+/g, '-')}`);
  });
  return {
    get host() {
      if (!host) throw new Error('the suite has not started');
      return host;
    },
    get wb() {
      if (!wb) throw new Error('the workbench is not open');
      return wb;
    },
  };
}
