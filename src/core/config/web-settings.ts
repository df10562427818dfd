/** The search back ends `web_search_provider` may name (settings.json); DuckDuckGo needs no key. */
export const WEB_SEARCH_PROVIDERS = ['duckduckgo', 'searxng'] as const;
export type WebSearchProviderName = (typeof WEB_SEARCH_PROVIDERS)[number];

/** Overrides the search endpoint (a SearXNG instance, or a local page in tests). */
export const WEB_SEARCH_URL_ENV = 'OPENDEV_WEB_SEARCH_URL';
/** The Chromium or Chrome the web tools drive; wins over the `chromium_path` setting (user settings only, never a project's). */
export const CHROMIUM_ENV = 'OPENDEV_CHROMIUM';

/** What the settings say about the web tools (both optional: the defaults work without a browser or key). */
export interface WebSettings {
  searchProvider?: WebSearchProviderName;
  chromiumPath?: string;
}
