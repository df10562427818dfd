import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loadPackage } from '../packages/package-loader';
import { childEnv } from '../process/child-env';
import { loadTemplateSections, renderTemplate } from '../templates';
import { checkHost, refusalError, systemLookup, type HostLookup, type HostVerdict } from './address-guard';
import { CHROMIUM_ENV } from '../config/web-settings';

/** Where to look for a browser: the environment, the `chromium_path` setting, the platform. */
export interface ChromiumSearch {
  env: NodeJS.ProcessEnv;
  setting?: string;
  platform?: NodeJS.Platform;
}

export type ChromiumLocation = { found: true; path: string } | { found: false; reason: string };

/**
 * The Chromium to drive: OPENDEV_CHROMIUM, then the `chromium_path` setting (a choice the user made
 * is final: when it names a missing file there is no browser), then the usual install locations,
 * then playwright's own download cache.
 */
export function locateChromium(search: ChromiumSearch): ChromiumLocation {
  const chosen = search.env[CHROMIUM_ENV]?.trim() ? { source: CHROMIUM_ENV, path: search.env[CHROMIUM_ENV]!.trim() } : search.setting?.trim() ? { source: 'The chromium_path setting', path: search.setting.trim() } : undefined;
  if (chosen) {
    return existsSync(chosen.path) ? { found: true, path: chosen.path } : { found: false, reason: browserText('missing_choice', { SOURCE: chosen.source, PATH: chosen.path }) };
  }
  const candidates = [...systemBrowsers(search.platform ?? process.platform, search.env), ...playwrightCache(search.platform ?? process.platform, search.env)];
  const path = candidates.find((p) => existsSync(p));
  return path ? { found: true, path } : { found: false, reason: browserText('no_browser', { TRIED: candidates.join(', ') }) };
}

/** The browser is missing or would not start: the message says how to get one. */
export class BrowserUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrowserUnavailableError';
  }
}

export interface BrowserSessionOptions {
  search: () => ChromiumSearch;
  /** Closed after this long unused (default 60 s): a browser holds hundreds of MB. */
  idleMs?: number;
  /** Resolves host names for the address guard (tests give names their own addresses). */
  lookup?: HostLookup;
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  /** Closes the page when aborted (the user stopped the agent): what runs on it fails at once. */
  signal?: AbortSignal;
}

/**
 * One headless browser for a session, started on first use (most sessions never need one), shared
 * by the web tools, closed after a minute unused and when the session ends. Each use gets its own
 * browser context, so cookies and storage never leak from one page to the next.
 */
export class BrowserSession {
  private launching?: Promise<Browser>;
  private idleTimer?: NodeJS.Timeout;
  private inUse = 0;
  private disposed = false;

  constructor(private readonly options: BrowserSessionOptions) {}

  locate(): ChromiumLocation {
    return locateChromium(this.options.search());
  }

  /** Runs `use` on a fresh page; throws BrowserUnavailableError when there is no browser to run it in. */
  async withPage<T>(use: (page: Page) => Promise<T>, options: PageOptions = {}): Promise<T> {
    if (this.disposed) throw new BrowserUnavailableError('The session has ended; its browser is closed.');
    this.inUse++;
    clearTimeout(this.idleTimer);
    try {
      const browser = await this.browser();
      // Service workers would fetch past the route below.
      const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 }, acceptDownloads: false, serviceWorkers: 'block' });
      // Playwright may never settle a call whose context closes under it (newPage does not), so
      // a stop rejects at once by itself, and the context is closed behind it.
      let fail: (reason: unknown) => void = () => {};
      const stopped = new Promise<never>((_, reject) => {
        fail = reject;
      });
      stopped.catch(() => undefined);
      const stop = () => fail(options.signal?.reason ?? new Error('aborted'));
      options.signal?.addEventListener('abort', stop, { once: true });
      try {
        const guarded = await this.guard(context, fail);
        options.signal?.throwIfAborted();
        const work = context.newPage().then(use);
        work.catch(() => undefined);
        const result = await Promise.race([work, stopped]);
        await guarded.settled();
        return result;
      } finally {
        options.signal?.removeEventListener('abort', stop);
        await context.close().catch(() => undefined);
      }
    } finally {
      this.inUse--;
      this.scheduleIdleClose();
    }
  }

  /**
   * The address guard inside the browser: requests to link-local or metadata addresses are
   * aborted before they leave, and since playwright does not route redirect hops, any request
   * (a redirect included) that reaches one fails the whole use: nothing the page shows then
   * (text, a screenshot) reaches the model. `settled` waits for the checks still running (a name
   * being looked up) and throws the refusal if one found a forbidden address.
   */
  private async guard(context: BrowserContext, fail: (reason: unknown) => void): Promise<{ settled(): Promise<void> }> {
    const lookup = this.options.lookup ?? systemLookup;
    const verdicts = new Map<string, Promise<HostVerdict | undefined>>();
    const check = async (raw: string) => {
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return undefined;
      }
      if (!/^(?:https?|wss?):$/.test(url.protocol)) return undefined;
      let verdict = verdicts.get(url.hostname);
      if (!verdict) verdicts.set(url.hostname, (verdict = checkHost(url.hostname, lookup)));
      const found = await verdict.catch(() => undefined);
      return found && refusalError(url, found);
    };
    let refused: Error | undefined;
    const refuse = (refusal: Error) => {
      refused ??= refusal;
      fail(refusal);
    };
    const pending: Array<Promise<unknown>> = [];
    await context.route('**/*', async (route) => {
      const refusal = await check(route.request().url());
      if (refusal) {
        refuse(refusal);
        await route.abort('blockedbyclient').catch(() => undefined);
      } else await route.continue().catch(() => undefined);
    });
    context.on('request', (request) => {
      if (request.redirectedFrom()) pending.push(check(request.url()).then((refusal) => refusal && refuse(refusal)));
    });
    return {
      async settled() {
        await Promise.all(pending);
        if (refused) throw refused;
      },
    };
  }

  /** True while a browser process is running (tests check it closes). */
  get running(): boolean {
    return this.launching !== undefined;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.close();
  }

  private browser(): Promise<Browser> {
    if (!this.launching) {
      // A crashed or failed browser is forgotten, so the next use starts a new one.
      const launching: Promise<Browser> = this.launch().then(
        (browser) => {
          browser.on('disconnected', () => {
            if (this.launching === launching) this.launching = undefined;
          });
          return browser;
        },
        (err: unknown) => {
          if (this.launching === launching) this.launching = undefined;
          throw err;
        },
      );
      this.launching = launching;
    }
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    const location = this.locate();
    if (!location.found) throw new BrowserUnavailableError(location.reason);
    // playwright-core may be downloaded now (the extension's first browser use): its own error says so.
    const { chromium } = await loadPackage('playwright-core').catch((err: unknown) => {
      throw new BrowserUnavailableError((err as Error).message);
    });
    let browser: Browser;
    try {
      // The CLI handles Ctrl+C itself (it stops the agent, not the process); playwright still kills the browser on exit.
      // The browser gets our environment without the secret variables (playwright's default is all of process.env).
      browser = await chromium.launch({ executablePath: location.path, headless: true, handleSIGINT: false, env: childEnv(), args: ['--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    } catch (err) {
      const message = ((err as Error).message ?? String(err)).split('\n')[0]!;
      throw new BrowserUnavailableError(browserText('launch_failed', { PATH: location.path, ERROR: message }));
    }
    return browser;
  }

  private scheduleIdleClose(): void {
    if (this.inUse > 0 || this.disposed) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), this.options.idleMs ?? 60_000);
    this.idleTimer.unref();
  }

  private async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const launching = this.launching;
    this.launching = undefined;
    const browser = await launching?.catch(() => undefined);
    await browser?.close().catch(() => undefined);
  }
}

function browserText(section: string, vars: Record<string, string>): string {
  return renderTemplate(loadTemplateSections('web/browser.md').get(section) ?? section, vars);
}

function systemBrowsers(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  if (platform === 'darwin') {
    const apps = ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge'];
    return [...apps.map((a) => `/Applications/${a}`), ...apps.map((a) => join(homedir(), 'Applications', a))];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((r): r is string => Boolean(r));
    const exes = ['Google\\Chrome\\Application\\chrome.exe', 'Chromium\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe'];
    return roots.flatMap((root) => exes.map((exe) => `${root}\\${exe}`));
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/snap/bin/chromium'];
}

/** Browsers `npx playwright install chromium` downloaded (PLAYWRIGHT_BROWSERS_PATH or the default cache). */
function playwrightCache(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string[] {
  const root =
    env.PLAYWRIGHT_BROWSERS_PATH ||
    (platform === 'darwin' ? join(homedir(), 'Library', 'Caches', 'ms-playwright') : platform === 'win32' ? join(env.LOCALAPPDATA ?? homedir(), 'ms-playwright') : join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'ms-playwright'));
  let dirs: string[];
  try {
    dirs = readdirSync(root).filter((d) => d.startsWith('chromium')).sort().reverse();
  } catch {
    return [join(root, 'chromium-*')];
  }
  const inside =
    platform === 'darwin'
      ? ['chrome-mac/Chromium.app/Contents/MacOS/Chromium', 'chrome-mac-arm64/Chromium.app/Contents/MacOS/Chromium', 'chrome-mac-x64/Chromium.app/Contents/MacOS/Chromium']
      : platform === 'win32'
        ? ['chrome-win/chrome.exe', 'chrome-win64/chrome.exe']
        : ['chrome-linux/chrome', 'chrome-linux64/chrome', 'chrome-linux/headless_shell', 'chrome-headless-shell-linux64/chrome-headless-shell'];
  return dirs.flatMap((d) => inside.map((p) => join(root, d, p)));
}
