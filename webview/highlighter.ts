import { hljs } from './highlight-languages';
import './highlighter-handoff';

/**
 * Entry of the chat view's second script, `dist/webview-highlight.js`: highlight.js and its grammars,
 * which code-highlight.ts loads when the first code block appears. A classic script (it runs under
 * the view's nonce like the first one) that hands itself over as a global.
 */
window.opendevHighlighter = hljs;
