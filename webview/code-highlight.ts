import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/**
 * Syntax highlighting of code blocks with highlight.js, limited to a curated set of common
 * languages (the full set would triple the view's script). A block without a language, or in
 * one not registered here, stays plain: guessing misleads more often than it helps.
 *
 * highlight.js returns HTML; it is parsed inert (a template) and rebuilt from spans whose only
 * attribute is an `hljs-…` class and from text nodes, so nothing else can reach the page.
 */

const LANGUAGES = { bash, c, cpp, csharp, css, diff, go, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
// Names models use that highlight.js does not know as aliases.
hljs.registerAliases(['sh', 'zsh', 'console', 'shellscript'], { languageName: 'bash' });
hljs.registerAliases(['jsonc', 'json5'], { languageName: 'json' });
hljs.registerAliases(['vue', 'svelte'], { languageName: 'xml' });
hljs.registerAliases(['patch'], { languageName: 'diff' });

/** Blocks larger than this stay plain: highlighting them would stall the view for little gain. */
const MAX_CHARS = 100_000;
/** Recently highlighted blocks, so a block scrolled back into view is not highlighted again. */
const CACHE_ENTRIES = 100;
const CACHE_CHARS = 2_000_000;
const cache = new Map<string, DocumentFragment>();
let cachedChars = 0;

/** The registered language a fence's info string names (`ts`, `TypeScript`, `tsx`), if any. */
export function knownLanguage(info: string): string | undefined {
  const name = info.trim().split(/[\s{]/)[0]?.toLowerCase() ?? '';
  return name && hljs.getLanguage(name) ? name : undefined;
}

/** The code as highlighted nodes, or undefined when it stays plain (no known language, too large). */
export function highlighted(code: string, info: string): DocumentFragment | undefined {
  const language = knownLanguage(info);
  if (!language || code.length > MAX_CHARS) return undefined;
  const key = `${language}\u0000${code}`;
  let fragment = cache.get(key);
  if (fragment) {
    cache.delete(key); // most recently used goes last
    cache.set(key, fragment);
  } else {
    const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
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
