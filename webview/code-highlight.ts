import type { Highlighter } from './highlighter-handoff';

/**
 * Syntax highlighting of code blocks with highlight.js (highlight-languages.ts). It would be 40% of
 * the view's script and a chat needs none of it before its first code block, so it is a second
 * script (`dist/webview-highlight.js`, next to this one) that the first code block loads: a block starts
 * loading it when it begins to stream, so it is there when the block closes; a block drawn closed
 * before it has arrived (a resumed session's first paint) is drawn plain and coloured in place
 * once it has. If it cannot load, code stays plain.
 *
 * highlight.js returns HTML; it is parsed inert (a template) and rebuilt from spans whose only
 * attribute is an `hljs-…` class and from text nodes, so nothing else can reach the page.
 */

/** The second script's address (beside this one's) and the view's nonce, read while this script runs. */
const self = document.currentScript as HTMLScriptElement | null;
const HIGHLIGHTER_SRC = self?.src ? new URL('webview-highlight.js', self.src).href : undefined;
const NONCE = self?.nonce;

let highlighter: Highlighter | undefined;
let loading = false;
/** Closed blocks drawn plain while highlight.js loads: coloured once it has. */
const waiting = new Map<HTMLElement, { text: string; info: string }>();

/** Gives the view highlight.js: the second script once it has run (or a benchmark, directly). */
export function useHighlighter(api: Highlighter): void {
  highlighter = api;
  for (const [code, { text, info }] of waiting) paint(code, text, info);
  waiting.clear();
}

/** Starts loading highlight.js, once, unless the view has it: a code block is on its way. */
export function loadHighlighter(): void {
  if (highlighter || loading || !HIGHLIGHTER_SRC) return;
  loading = true;
  const script = document.createElement('script');
  script.src = HIGHLIGHTER_SRC;
  if (NONCE) script.nonce = NONCE;
  script.addEventListener('load', () => {
    const api = window.opendevHighlighter;
    if (api) useHighlighter(api);
    else waiting.clear();
  });
  script.addEventListener('error', () => {
    console.warn('OpenDev: the code highlighter did not load; code blocks stay plain');
    waiting.clear();
  });
  document.head.append(script);
}

/** A closed block's code into `code`: highlighted when its language is known (now, or once highlight.js is here), else plain. */
export function showCode(code: HTMLElement, text: string, info: string): void {
  code.textContent = text;
  if (highlighter) paint(code, text, info);
  else if (HIGHLIGHTER_SRC && info.trim()) {
    waiting.set(code, { text, info });
    loadHighlighter();
  }
}

function paint(code: HTMLElement, text: string, info: string): void {
  const language = knownLanguage(info);
  const colours = language ? highlighted(text, language) : undefined;
  if (!colours) return;
  code.className = `hljs language-${language}`;
  code.replaceChildren(colours);
}

/** Blocks larger than this stay plain: highlighting them would stall the view for little gain. */
const MAX_CHARS = 100_000;
/** Recently highlighted blocks, so a block scrolled back into view is not highlighted again. */
const CACHE_ENTRIES = 100;
const CACHE_CHARS = 2_000_000;
const cache = new Map<string, DocumentFragment>();
let cachedChars = 0;

/** The registered language a fence's info string names (`ts`, `TypeScript`, `tsx`), if any. */
function knownLanguage(info: string): string | undefined {
  const name = info.trim().split(/[\s{]/)[0]?.toLowerCase() ?? '';
  return name && highlighter?.getLanguage(name) ? name : undefined;
}

/** The code as highlighted nodes, or undefined when it stays plain (too large). */
function highlighted(code: string, language: string): DocumentFragment | undefined {
  if (!highlighter || code.length > MAX_CHARS) return undefined;
  const key = `${language}\u0000${code}`;
  let fragment = cache.get(key);
  if (fragment) {
    cache.delete(key); // most recently used goes last
    cache.set(key, fragment);
  } else {
    const html = highlighter.highlight(code, { language, ignoreIllegals: true }).value;
    fragment = sanitize(html);
    remember(key, fragment);
  }
  return fragment.cloneNode(true) as DocumentFragment;
}

function remember(key: string, fragment: DocumentFragment): void {
  cache.set(key, fragment);
  cachedChars += key.length;
  for (const [oldest] of cache) {
    if (cache.size <= CACHE_ENTRIES && cachedChars <= CACHE_CHARS) break;
    cache.delete(oldest);
    cachedChars -= oldest.length;
  }
}

const CLASS = /^(hljs-[\w-]+|[a-z]+_)$/;

/** Rebuilds highlight.js's markup from its spans' classes and its text, dropping anything else. */
function sanitize(html: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = html;
  const out = document.createDocumentFragment();
  copy(template.content, out);
  return out;
}

function copy(from: Node, to: Node): void {
  for (const node of Array.from(from.childNodes)) {
    if (node.nodeType === Node.TEXT_NODE) to.appendChild(document.createTextNode(node.textContent ?? ''));
    else if (node.nodeName === 'SPAN') {
      const span = document.createElement('span');
      const classes = Array.from((node as Element).classList).filter((name) => CLASS.test(name));
      if (classes.length > 0) span.className = classes.join(' ');
      copy(node, span);
      to.appendChild(span);
    } else if (node.nodeType === Node.ELEMENT_NODE) copy(node, to);
  }
}
