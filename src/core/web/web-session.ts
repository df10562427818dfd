import type { HostLookup } from './address-guard';
import { BrowserSession } from './browser';
import { DuckDuckGoSearch } from './duckduckgo-search';
import type { SearchProvider } from './search-provider';
import { SearxngSearch } from './searxng-search';
import type { WebSettings } from '../config/web-settings';

export interface WebSessionOptions {
  settings?: WebSettings;
  /** Read when a tool runs (OPENDEV_CHROMIUM, OPENDEV_WEB_SEARCH_URL); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Per request and per page render; default 30 s (tests shorten it). */
  timeoutMs?: number;
  /** The browser closes after this long unused; default 60 s. */
  browserIdleMs?: number;
  /** Host names to addresses for the address guard; default the system's DNS (tests map names). */
  lookup?: HostLookup;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * What the web tools of one session share: the settings, the request deadline, and one lazily
 * started browser, which `dispose` closes (the agent's dispose calls it when the session ends).
 */
export class WebSession {
  readonly browser: BrowserSession;
  readonly timeoutMs: number;

  constructor(private readonly options: WebSessionOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.browser = new BrowserSession({
      search: () => ({ env: this.env, setting: options.settings?.chromiumPath }),
      idleMs: options.browserIdleMs,
      lookup: options.lookup,
    });
  }

  /** For the address guard of plain requests (the browser has its own copy). */
  get lookup(): HostLookup | undefined {
    return this.options.lookup;
  }

  get env(): NodeJS.ProcessEnv {
    return this.options.env ?? process.env;
  }

  /** The `web_search_provider` setting's back end; DuckDuckGo by default. */
  searchProvider(): SearchProvider {
    return this.options.settings?.searchProvider === 'searxng' ? new SearxngSearch(this.env) : new DuckDuckGoSearch(this.env);
  }

  dispose(): Promise<void> {
    return this.browser.dispose();
  }
}
