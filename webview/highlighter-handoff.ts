import type { HLJSApi } from 'highlight.js';

/** What the view uses of highlight.js. */
export type Highlighter = Pick<HLJSApi, 'highlight' | 'getLanguage'>;

declare global {
  interface Window {
    /**
     * How the chat view's second script (highlighter.ts: highlight.js and its grammars) hands
     * itself to the first (code-highlight.ts): set once it has run.
     */
    opendevHighlighter?: Highlighter;
  }
}
