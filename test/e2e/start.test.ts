import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser } from 'playwright-core';
import { CHAT_INPUT, closeSharedWorkbench, loadE2eHost } from './host';

// The page's own global, for the function evaluated in it (this project's Node types have no DOM).
declare const document: { title: string };

const repo = join(__dirname, '../../..');
const START = join(repo, 'test/host/start.mjs');

/**
 * `npm start` as a user meets it (issue 17): the real test/host/start.mjs process on a folder of the
 * user's own, its printed address opened in headless Chromium: the plain base address shows a
 * workbench with that folder open and OpenDev installed (its view opens and shows the chat).
 */
describe('npm start (end to end)', function () {
  this.timeout(240_000);
  const tmp = mkdtempSync(join(tmpdir(), 'opendev-start-test-'));
  const folder = join(tmp, 'my-project');
  let child: ChildProcess | undefined;
  let exited: Promise<number | null> | undefined;
  let browser: Browser | undefined;

  /** start.mjs with the desktop branch out of reach (no display), its own data dir and any free port. */
  function runStart(args: string[], env: Record<string, string> = {}): ChildProcess {
    return spawn(process.execPath, [START, ...args], {
      cwd: repo,
      env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '', OPENDEV_PORT: '0', OPENDEV_START_DATA: join(tmp, 'data'), INIT_CWD: tmp, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /** Everything a process printed and its exit code, once it exits. */
  function outcome(proc: ChildProcess): Promise<{ code: number | null; output: string }> {
    let output = '';
    proc.stdout?.on('data', (d) => (output += d));
    proc.stderr?.on('data', (d) => (output += d));
    return new Promise((resolve) => proc.on('close', (code) => resolve({ code, output })));
  }

  before(async () => {
    await closeSharedWorkbench(); // one workbench at a time on a small machine
    mkdirSync(folder);
    writeFileSync(join(folder, 'only-in-my-project.txt'), 'a file the sample workspace does not have\n');
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      // start.mjs stops its server on SIGTERM; a generous limit, then the hard way.
      const stopped = await Promise.race([exited, new Promise((r) => setTimeout(() => r('late'), 30_000))]);
      if (stopped === 'late') child.kill('SIGKILL');
    }
    rmSync(tmp, { recursive: true, force: true });
  });

  it('refuses a folder that does not exist, or a file, with a clear message and nothing started', async () => {
    const missing = await outcome(runStart(['no-such-folder']));
    assert.notEqual(missing.code, 0);
    assert.ok(missing.output.includes(`${join(tmp, 'no-such-folder')} does not exist`), missing.output);
    const file = await outcome(runStart([], { OPENDEV_START_FOLDER: join(folder, 'only-in-my-project.txt') }));
    assert.notEqual(file.code, 0);
    assert.match(file.output, /only-in-my-project\.txt is not a folder/);
  });

  it('opens OpenDev on the given folder at the plain address it prints', async () => {
    // A relative folder, as typed where `npm start` was run (INIT_CWD).
    child = runStart(['my-project']);
    const proc = child;
    exited = new Promise((resolve) => proc.on('exit', (code) => resolve(code)));
    let log = '';
    proc.stderr?.on('data', (d) => (log += d));
    const lines = createInterface({ input: proc.stdout! });
    const address = await new Promise<string>((resolve, reject) => {
      const limit = setTimeout(() => reject(new Error(`no address printed within 120 s:\n${log}`)), 120_000);
      lines.on('line', (line) => {
        log += line + '\n';
        const m = /running in VS Code at (http:\/\/127\.0\.0\.1:\d+\/) /.exec(line);
        if (m) (clearTimeout(limit), resolve(m[1]));
      });
      proc.on('exit', (code) => (clearTimeout(limit), reject(new Error(`start exited (${code}) before printing an address:\n${log}`))));
    });

    const res = await fetch(address);
    assert.equal(res.status, 200, 'the base address answers over real HTTP');
    assert.match(await res.text(), /workbench/);

    const { launchBrowser } = (await import(join(repo, 'test/host/vscode-server.mjs'))) as { launchBrowser(): Promise<Browser> };
    browser = await launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(60_000);
    await page.goto(address);
    await page.locator('.monaco-workbench').waitFor({ state: 'visible' });
    // The folder is open: the window is titled after it and the explorer lists its file.
    await page.waitForFunction(() => document.title.includes('my-project'));
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'only-in-my-project.txt' }).waitFor();
    // OpenDev is installed: its view container is in the activity bar, and its view shows the chat.
    const icon = page.locator('.activitybar .action-label[aria-label="OpenDev"]');
    await icon.click();
    const host = await loadE2eHost();
    const chat = await host.findFrame(page, async (f) => (await f.locator(CHAT_INPUT).count()) > 0);
    assert.ok(chat, 'the OpenDev chat view rendered');
  });
});
