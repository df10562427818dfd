import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Frame, Locator, Page } from 'playwright-core';

/** The typed face of test/host/e2e.mjs (plain JS, loaded with import()). */
export interface Workbench {
  page: Page;
  /** The workspace folder the workbench opened (a fresh copy of the sample workspace). */
  workspace: string;
  close(): Promise<void>;
  screenshot(name: string): Promise<string>;
}

export interface E2eHost {
  /** `multiRoot`: a two-folder .code-workspace (app, the sample workspace; api, a second project), `workspace` being its file; `locale`: the display language. */
  openWorkbench(options: { userSettings?: Record<string, unknown>; env?: Record<string, string>; multiRoot?: boolean; locale?: string }): Promise<Workbench>;
  runCommand(page: Page, title: string): Promise<void>;
  findFrame(page: Page, predicate: (frame: Frame) => Promise<boolean>, timeoutMs?: number): Promise<Frame>;
  closeQuickInput(page: Page): Promise<void>;
  restoreSampleWorkspace(workspace: string): void;
}

const repo = join(__dirname, '../../..');

/**
 * "OpenDev: Set API Key" from the palette for the current provider: the command asks which provider
 * first (the current one, OpenAI, is focused at the top), then takes the key in a password box.
 */
export async function storeApiKey(host: E2eHost, page: Page, key: string): Promise<void> {
  const box = page.locator('.quick-input-widget input[type="password"]');
  const openai = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'OpenAI' });
  for (const deadline = Date.now() + UI_LIMIT_MS; ; ) {
    await runUntilPicked(host, page, 'OpenDev: Set API Key', 'OpenAI', deadline);
    // A click, not Enter: a view that takes the focus (the walkthrough) may close the pick first, and
    // an Enter would then go to that view; a click on a row that went fails, and we ask again.
    if (await openai.click({ timeout: 5_000 }).then(() => true, () => false)) break;
    if (Date.now() > deadline) throw new Error('the provider pick of "Set API Key" closed before it was answered');
  }
  // The pick answered, the key box follows (it may take long on a busy machine: no second try here,
  // which would open the palette over it).
  await box.waitFor({ timeout: UI_LIMIT_MS });
  await box.fill(key);
  // The box stays open when it loses the focus (ignoreFocusOut), so a view that takes the focus
  // (the walkthrough showing its step) can swallow the Enter: press it again on the box until the
  // box closes, within one overall limit.
  const closed = await eventually(async () => {
    await box.press('Enter', { timeout: 1_000 }).catch(() => undefined); // it may close meanwhile
    return box.waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false);
  });
  if (!closed) throw new Error('the key box of "Set API Key" did not take the key');
}

/** The one limit of every wait on the UI in these helpers (test/host/e2e.mjs UI_WAIT_MS). */
const UI_LIMIT_MS = 60_000;

/**
 * Runs a palette command whose quick pick should focus the row with `row`. The pick may take long
 * to come (the command reads something first): it is waited for, and not asked for again while it
 * may still come (F1 would replace it). A view that takes the focus meanwhile (the walkthrough
 * ticking the step the command completes, a notification) closes the pick, sometimes before it
 * was ever seen: the command is run again when a pick was shown and closed, or when none has been
 * seen for PICK_GRACE_MS, all within one overall limit (`deadline`, shared with the caller's).
 */
export async function runUntilPicked(host: E2eHost, page: Page, title: string, row: string, deadline = Date.now() + UI_LIMIT_MS): Promise<void> {
  const focused = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: row });
  const widget = page.locator('.quick-input-widget');
  for (;;) {
    await host.runCommand(page, title);
    // runCommand returned once the palette closed: a quick input open from now on is the command's.
    const ran = Date.now();
    let shown = false;
    for (;;) {
      if (await focused.isVisible()) return;
      const open = await widget.isVisible();
      if (open) shown = true;
      else if (shown || Date.now() - ran > PICK_GRACE_MS) break; // closed under us, or before it was seen
      if (Date.now() > deadline) throw new Error(`the pick of "${title}" did not ${shown ? 'focus the row ' + row : 'open'}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (Date.now() > deadline) throw new Error(`the pick of "${title}" did not stay open`);
  }
}

/** How long a command's pick may take to come before the command is run again (it may have come and gone unseen). */
const PICK_GRACE_MS = 15_000;

/**
 * Polls `check` (every 250 ms) until it holds, within the one limit of every UI wait (60 s): for a
 * state no locator can wait on, such as where the focus is. False when it never held.
 */
export async function eventually(check: () => Promise<boolean>, limitMs = 60_000): Promise<boolean> {
  for (const deadline = Date.now() + limitMs; !(await check()); ) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return true;
}

/**
 * A screenshot for the README (test/e2e/screenshots/readme-<name>.png; `npm run screenshots` copies
 * them to docs/screenshots/): taken as the tests leave the workbench, without the notifications
 * (a saved key, a trust question) that are the tests' business, not the reader's.
 */
export async function readmeScreenshot(host: E2eHost, wb: Workbench, name: string): Promise<void> {
  await host.runCommand(wb.page, 'Notifications: Clear All Notifications');
  await wb.page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'detached' }).catch(() => undefined);
  await wb.page.mouse.move(0, 0); // no hover or tooltip left over from the last click
  await wb.screenshot(`readme-${name}`);
}

/** What a terminal (`.terminal-wrapper`) shows: with the DOM renderer each row is text. */
export async function terminalText(terminal: Locator): Promise<string> {
  return ((await terminal.locator('.xterm-rows').textContent()) ?? '').replace(/\u00a0/g, ' ');
}

/** Waits, within one limit, until the terminal shows `pattern`; the error says what it shows instead. */
export async function waitTerminal(terminal: Locator, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(await terminalText(terminal))) {
    if (Date.now() > deadline) throw new Error(`the terminal never showed ${pattern}; it shows:\n${await terminalText(terminal)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The chat view's input, by its accessible name: the element a chat frame is recognised by. */
export const CHAT_INPUT = 'vscode-textarea[aria-label="Ask OpenDev"]';

/** The chat view's frame, once its input is there (it appears a few seconds after the view opens). */
export function findChat(host: E2eHost, page: Page, timeoutMs = 60_000): Promise<Frame> {
  return host.findFrame(page, async (f) => (await f.locator(CHAT_INPUT).count()) > 0, timeoutMs);
}

/**
 * "OpenDev: New Chat" from the palette, then the chat view's frame once it shows the new
 * conversation. The command runs in the extension host after the palette has closed (after its
 * activation, right after a reload): a question typed into the view before that would be wiped by it.
 */
export async function openChat(host: E2eHost, page: Page): Promise<Frame> {
  const shown = await conversationShown(page);
  await host.runCommand(page, 'OpenDev: New Chat');
  const chat = await findChat(host, page);
  for (const deadline = Date.now() + 60_000; (await conversationIn(chat)) <= shown; await sleep(100)) {
    if (Date.now() > deadline) throw new Error('New Chat did not reach the chat view');
  }
  return chat;
}

/** The conversation the chat view shows now (0, a fresh extension host's first, when no view is open yet). */
async function conversationShown(page: Page): Promise<number> {
  for (const frame of page.frames()) {
    try {
      if ((await frame.locator(CHAT_INPUT).count()) > 0) return Math.max(0, await conversationIn(frame));
    } catch { /* a frame navigated or detached meanwhile */ }
  }
  return 0;
}

/** The conversation a chat view's page marks (-1 before its first snapshot). The page's CSP forbids evaluated strings: read the attribute. */
async function conversationIn(chat: Frame): Promise<number> {
  return Number((await chat.locator('body').getAttribute('data-conversation', { timeout: 60_000 })) ?? -1);
}

/** What a suite set up by workbenchSuite works with (read inside its tests). */
export interface WorkbenchSuite {
  readonly host: E2eHost;
  readonly wb: Workbench;
}

/** What a suite adds to the shared setup: more user settings (over the defaults), the extension host's environment. */
export interface WorkbenchSuiteOptions {
  userSettings?: Record<string, unknown>;
  env?: Record<string, string>;
  /** Take a turn on the shared workbench (see workbenchSuite); then without userSettings or env. */
  shared?: boolean;
}

type FakeModel = { openaiBaseUrl: string; start(port?: number): Promise<unknown>; stop(): Promise<unknown> };

/**
 * The settings of the one workbench the suites under test/e2e/shared-workbench/ take turns on (over
 * the defaults of workbenchSuite). VS Code applies user settings only at start here, so a suite that
 * needs others opens a workbench of its own. Thinking stays off, so the cadence only matters to the
 * suite that turns thinking on with /thinking.
 */
const SHARED_SETTINGS = {
  'workbench.colorTheme': 'Default Dark Modern',
  'opendev.thinkingCadence': 'every-step',
  // DOM rows in the terminals: text a test can read and double-click (editor habits' terminal menu).
  'terminal.integrated.gpuAcceleration': 'off',
};

/**
 * The shared workbench, once opened, with the port its suites' fake providers listen on in turn
 * (the extension's opendev.baseUrl points there). Opening a workbench costs about 30 CPU-seconds,
 * the most expensive step of the e2e stage on a 2-core machine.
 */
let shared: Promise<{ wb: Workbench; port: number }> | undefined;

/** Closes the shared workbench (before a suite opens its own, and after the last suite). */
export async function closeSharedWorkbench(): Promise<void> {
  const opened = shared;
  shared = undefined;
  await (await opened?.catch(() => undefined))?.wb.close();
}
after(closeSharedWorkbench);

export async function loadE2eHost(): Promise<E2eHost> {
  const host = (await import(join(repo, 'test/host/e2e.mjs'))) as E2eHost;
  // One workbench at a time: one left idle beside another still costs CPU.
  return { ...host, openWorkbench: async (options) => (await closeSharedWorkbench(), host.openWorkbench(options)) };
}

/**
 * Hands the shared workbench to the next suite as a fresh one would look: no quick input, no editor,
 * the sample workspace as copied. The chat suites start a New Chat themselves.
 */
async function resetSharedWorkbench(host: E2eHost, wb: Workbench): Promise<void> {
  for (let i = 0; i < 2; i++) await wb.page.keyboard.press('Escape');
  await host.runCommand(wb.page, 'View: Close All Editors');
  // A file the previous suite left changed in an editor: its changes go, as the workspace's do below.
  const dontSave = wb.page.locator('.monaco-dialog-box .monaco-button', { hasText: "Don't Save" });
  const tabs = wb.page.locator('.editor-group-container .tab');
  const closed = await eventually(async () => {
    if (await dontSave.isVisible()) await dontSave.click();
    return (await tabs.count()) === 0;
  });
  if (!closed) throw new Error('the editors of the previous suite did not close');
  host.restoreSampleWorkspace(wb.workspace);
}

/**
 * The e2e suites' setup, as mocha hooks of the describe() that calls it: the fake provider
 * started, a workbench opened with the extension pointed at it (thinking off: one model call per
 * message), a screenshot of each failing test, and all of it closed after the suite. With `shared`,
 * the suite takes its turn on the shared workbench (SHARED_SETTINGS; no settings or env of its own)
 * and leaves it open for the next.
 */
export function workbenchSuite(fake: FakeModel, options: WorkbenchSuiteOptions = {}): WorkbenchSuite {
  let host: E2eHost | undefined;
  let wb: Workbench | undefined;
  const defaults = () => ({ 'opendev.baseUrl': fake.openaiBaseUrl, 'opendev.thinkingLevel': 'off' });
  before(async () => {
    host = await loadE2eHost();
    if (!options.shared) {
      await fake.start();
      wb = await host.openWorkbench({ userSettings: { ...defaults(), ...options.userSettings }, ...(options.env ? { env: options.env } : {}) });
    } else if (!shared) {
      await fake.start();
      const port = Number(new URL(fake.openaiBaseUrl).port);
      shared = host.openWorkbench({ userSettings: { ...defaults(), ...SHARED_SETTINGS } }).then((opened) => ({ wb: opened, port }));
      wb = (await shared).wb;
    } else {
      const turn = await shared;
      await fake.start(turn.port);
      wb = turn.wb;
      await resetSharedWorkbench(host, wb);
    }
  });
  after(async () => {
    if (!options.shared) await wb?.close();
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

export interface ChatSuiteOptions extends WorkbenchSuiteOptions {
  /** Stored with Set API Key before the chat opens; without it the chat starts with no key. */
  apiKey?: string;
  /** Runs once the workbench is open, before the chat opens (files in the workspace, permissions). */
  prepare?: (wb: Workbench) => Promise<void> | void;
}

export interface ChatSuite extends WorkbenchSuite {
  /** The chat view's frame, opened by New Chat (a test that hides the view finds it again). */
  readonly chat: Frame;
}

/** workbenchSuite, then (optionally) a key, then a new chat: the setup of the chat view's suites. */
export function chatSuite(fake: FakeModel, options: ChatSuiteOptions = {}): ChatSuite {
  const suite = workbenchSuite(fake, options);
  let chat: Frame | undefined;
  before(async () => {
    await options.prepare?.(suite.wb);
    if (options.apiKey) await storeApiKey(suite.host, suite.wb.page, options.apiKey);
    chat = await openChat(suite.host, suite.wb.page);
  });
  return {
    get host() {
      return suite.host;
    },
    get wb() {
      return suite.wb;
    },
    get chat() {
      if (!chat) throw new Error('the chat is not open');
      return chat;
    },
  };
}
