// The VS Code experience, measured (issue 7) in the real VS Code server with its workbench in
// headless Chromium: the extension's activation (timed inside the extension host by probe.ts: as a caller of
// activate() waits, and what of that is ours, the load of dist/extension.js and our activate() call), the
// chat panel's first paint after "New Chat" opens it, and resuming a 2,000-message session from the
// history view: time until its transcript is painted and the page takes input again, the webview's
// JS heap that the session adds, and how many DOM nodes the panel holds. Medians over a few runs,
// each in a fresh server and browser (OPENDEV_BENCH_UI_RUNS, default 3).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { SessionStore } from '../../src/core/session/session-store';
import { longChatMessages, saveLongChat } from '../../test/fixtures/long-chat';
import { percentile, printTable } from '../stats';

// Browser globals used inside frame.evaluate callbacks: this file is typechecked without the DOM lib.
declare const document: any, window: any;

const repo = join(__dirname, '../../..');
const MESSAGES = 2_000;

interface VsCodeServerModule {
  ensureVSCodeServer(options?: { log?: (line: string) => void }): Promise<string>;
  startVSCodeServer(options: { serverRoot: string; env?: Record<string, string>; dataDir?: string }): Promise<{
    workbenchUrl(o: { folder?: string; extensionDevelopmentPath?: string; extensionTestsPath?: string }): string;
    stop(): Promise<void>;
  }>;
  copySampleWorkspace(parent: string): string;
}

interface Run {
  activationMs: number;
  /** Of activationMs: the extension host's require of dist/extension.js, and our activate() call (each from when it began). */
  loadStartMs: number;
  loadMs: number;
  activateStartMs: number;
  activateMs: number;
  coreMs: number;
  firstPaintMs: number;
  resumeMs: number;
  resumeInViewMs: number;
  heapMb: number;
  heapAddedMb: number;
  domNodes: number;
  entriesRendered: number;
  relayoutMs: number;
}

export async function main(): Promise<void> {
  const host = (await import(join(repo, 'test/host/vscode-server.mjs'))) as VsCodeServerModule;
  const serverRoot = await host.ensureVSCodeServer();
  const extensionPath = process.env.OPENDEV_EXTENSION_PATH || repo;
  const runs: Run[] = [];
  const count = Number(process.env.OPENDEV_BENCH_UI_RUNS) || 3;
  for (let i = 0; i < count; i++) runs.push(await oneRun(host, serverRoot, extensionPath));

  const row = (metric: string, unit: string, values: number[], digits = 0) => ({
    metric,
    median: `${fmt(percentile(values, 50), digits)} ${unit}`,
    min: fmt(Math.min(...values), digits),
    max: fmt(Math.max(...values), digits),
  });
  printTable(`ui: VS Code ${'1.99'} server + Chromium, ${count} runs, medians (a ${MESSAGES.toLocaleString('en-US')}-message session resumed from the history view)`, [
    row('extension activation, as a caller of activate() waits', 'ms', runs.map((r) => r.activationMs)),
    row('  of which ours: loading dist/extension.js', 'ms', runs.map((r) => r.loadMs), 1),
    row('  of which ours: activate()', 'ms', runs.map((r) => r.activateMs), 1),
    row('  of which VS Code’s own (the rest)', 'ms', runs.map((r) => r.activationMs - r.loadMs - r.activateMs)),
    row('    before it loads dist/extension.js', 'ms', runs.map((r) => r.loadStartMs)),
    row('    between the load and calling activate()', 'ms', runs.map((r) => r.activateStartMs - r.loadStartMs - r.loadMs), 1),
    row('    after activate() returned', 'ms', runs.map((r) => r.activationMs - r.activateStartMs - r.activateMs), 1),
    row('  then the rest loaded (status bar up), from the start', 'ms', runs.map((r) => r.coreMs)),
    row('chat panel first paint (New Chat → painted)', 'ms', runs.map((r) => r.firstPaintMs)),
    row('2,000-message session: click → painted and interactive', 'ms', runs.map((r) => r.resumeMs)),
    row('  of which in the webview (validate, render, paint)', 'ms', runs.map((r) => r.resumeInViewMs)),
    // The webview's frame shares its renderer (and JS heap) with the workbench here: the growth is the session's.
    row('JS heap of the webview’s renderer, after GC', 'MB', runs.map((r) => r.heapMb), 1),
    row('  of which the session adds', 'MB', runs.map((r) => r.heapAddedMb), 1),
    row('webview DOM nodes with the session shown', 'nodes', runs.map((r) => r.domNodes)),
    row('  transcript entries in the DOM (of 2,001)', 'entries', runs.map((r) => r.entriesRendered)),
    row('relayout when the panel is resized (with the session)', 'ms', runs.map((r) => r.relayoutMs), 1),
  ]);
}

async function oneRun(host: VsCodeServerModule, serverRoot: string, extensionPath: string): Promise<Run> {
  const tmp = mkdtempSync(join(tmpdir(), 'opendev-bench-ui-'));
  const home = join(tmp, 'home');
  const probe = join(tmp, 'probe');
  const workspace = host.copySampleWorkspace(tmp);
  await saveLongChat(new SessionStore({ home }), workspace, longChatMessages(MESSAGES), 'A very long session');
  const server = await host.startVSCodeServer({
    serverRoot,
    dataDir: join(tmp, 'vscode'),
    env: { OPENDEV_HOME: home, OPENDEV_BENCH_PROBE: probe, OPENDEV_DISABLE_REMOTE_MODELS: '1', OPENDEV_SESSION_TITLES: '0', OPENDEV_PLAYBOOK_LEARN: '0' },
  });
  let browser: Browser | undefined;
  try {
    browser = await launch();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(server.workbenchUrl({ folder: workspace, extensionDevelopmentPath: extensionPath, extensionTestsPath: join(repo, 'out/bench/ui/probe.js') }));
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 60_000 });
    const activation = await waitForFile(`${probe}.json`, 60_000).then((text) => JSON.parse(text) as { activationMs: number; coreMs: number; loadStartMs?: number; loadMs?: number; activateStartMs?: number; activateMs?: number; wasActive: boolean; found: boolean });
    if (!activation.found) throw new Error(`the extension was not found in ${extensionPath}`);
    if (activation.loadStartMs === undefined || activation.loadMs === undefined || activation.activateStartMs === undefined || activation.activateMs === undefined) throw new Error('the probe did not see the extension host load dist/extension.js and call its activate()');
    // The probe runs as the extension host starts, before onStartupFinished; had something activated it first, the time would mean nothing.
    if (activation.wasActive) throw new Error('the extension was already active when the probe ran: its activation cannot be timed cold');

    // Resuming builds the agent, which needs a key (no model is called).
    await setApiKey(page);
    const opened = await runCommand(page, 'OpenDev: New Chat');
    const chat = await findFrame(page, '#history-open');
    const paintedAt = await waitForMark(chat, 'opendev:first-paint');
    const firstPaintMs = paintedAt.epoch - opened;

    await chat.locator('#history-open').click();
    const session = chat.locator('#history .session', { hasText: 'A very long session' });
    await session.waitFor({ timeout: 30_000 });
    const baseline = await heap(chat);
    await session.click();
    const clicked = await waitForMark(chat, 'opendev:resume-click');
    const painted = await waitForMark(chat, 'opendev:snapshot-painted', clicked.startTime, MESSAGES);
    const received = await waitForMark(chat, 'opendev:snapshot-received', clicked.startTime, MESSAGES);
    await chat.locator('.entry.assistant', { hasText: `That is all for question ${MESSAGES / 4}.` }).waitFor({ timeout: 60_000 });
    await page.waitForTimeout(1000);
    const after = await heap(chat);
    const dom = await chat.evaluate(() => ({ nodes: document.getElementsByTagName('*').length, entries: document.querySelectorAll('#transcript .entry').length }));
    const relayoutMs = await relayout(chat);
    writeFileSync(`${probe}.done`, '');
    return {
      activationMs: activation.activationMs,
      loadStartMs: activation.loadStartMs,
      loadMs: activation.loadMs,
      activateStartMs: activation.activateStartMs,
      activateMs: activation.activateMs,
      coreMs: activation.coreMs,
      firstPaintMs,
      resumeMs: painted.startTime - clicked.startTime,
      resumeInViewMs: painted.startTime - received.startTime,
      heapMb: after / 1e6,
      heapAddedMb: (after - baseline) / 1e6,
      domNodes: dom.nodes,
      entriesRendered: dom.entries,
      relayoutMs,
    };
  } finally {
    writeFileSync(`${probe}.done`, '');
    await browser?.close().catch(() => undefined);
    await server.stop();
  }
}

/** Chromium with exact heap figures and a gc() to call before reading them. */
async function launch(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: process.env.OPENDEV_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--enable-precise-memory-info', '--js-flags=--expose-gc'],
  });
}

/** The palette, as a user runs a command; returns the time Enter was pressed (epoch ms). */
async function runCommand(page: Page, title: string): Promise<number> {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title });
  for (let attempt = 0; ; attempt++) {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${title}`);
    try {
      await row.waitFor({ timeout: 3000 });
      break;
    } catch (err) {
      await page.keyboard.press('Escape');
      if (attempt > 20) throw err;
    }
  }
  const pressed = Date.now();
  await page.keyboard.press('Enter');
  return pressed;
}

async function setApiKey(page: Page): Promise<void> {
  await runCommand(page, 'OpenDev: Set API Key');
  const box = page.locator('.quick-input-widget input[type="password"]');
  const providers = page.locator('.quick-input-list .monaco-list-row', { hasText: 'OpenAI' }).first();
  await Promise.race([box.waitFor({ timeout: 20_000 }), providers.waitFor({ timeout: 20_000 })]);
  if (!(await box.isVisible())) await page.keyboard.press('Enter');
  await box.fill('sk-bench-ui-not-used');
  await box.press('Enter');
  await box.waitFor({ state: 'hidden' });
}

async function findFrame(page: Page, selector: string): Promise<Frame> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    for (const frame of page.frames()) {
      if (await frame.$(selector).catch(() => null)) return frame;
    }
    if (Date.now() > deadline) throw new Error(`no frame with ${selector}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The newest performance mark `name` in the webview after `since` (its clock) whose transcript had at
 * least `entries` entries (resuming first clears the chat, then paints the session), with its epoch time.
 */
async function waitForMark(frame: Frame, name: string, since = -1, entries = 0): Promise<{ startTime: number; epoch: number }> {
  const handle = await frame.waitForFunction(
    ([n, s, e]) => {
      const mark = performance.getEntriesByName(n as string).at(-1) as { startTime: number; detail?: unknown } | undefined;
      const shown = (mark?.detail as { entries?: number } | null)?.entries ?? 0;
      return mark && mark.startTime > (s as number) && shown >= (e as number) ? { startTime: mark.startTime, epoch: performance.timeOrigin + mark.startTime } : undefined;
    },
    [name, since, entries] as const,
    { timeout: 60_000, polling: 20 },
  );
  return (await handle.jsonValue()) as { startTime: number; epoch: number };
}

/** What a sidebar resize costs with the session shown: the median of 9 forced layouts at alternating widths. */
async function relayout(frame: Frame): Promise<number> {
  return frame.evaluate(() => {
    const app = document.getElementById('app');
    const times: number[] = [];
    for (let i = 0; i < 9; i++) {
      const started = performance.now();
      app.style.width = i % 2 === 0 ? '280px' : '';
      void app.offsetHeight;
      times.push(performance.now() - started);
    }
    app.style.width = '';
    return times.sort((a, b) => a - b)[4];
  });
}

/** The webview's used JS heap after a full GC (bytes). */
async function heap(frame: Frame): Promise<number> {
  return frame.evaluate(async () => {
    const w = window as unknown as { gc?: () => void };
    for (let i = 0; i < 3; i++) {
      w.gc?.();
      await new Promise((r) => setTimeout(r, 50));
    }
    return (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? NaN;
  });
}

async function waitForFile(path: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`the extension host never wrote ${path}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, 50)); // written whole by one writeFileSync, but let it land
  return readFileSync(path, 'utf8');
}

function fmt(n: number, digits: number): string {
  return Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a';
}
