import * as l10n from '@vscode/l10n';
import type { Token, Tokens } from 'marked';
import { codePathTarget, linkTarget, type LinkTarget } from '../src/shared/link-target';
import { h } from './dom';

/**
 * Inline markdown tokens (marked's lexer) as DOM nodes: text, code, bold, italics, strikethrough,
 * line breaks and links. Only elements made here reach the page, every text through textContent:
 * raw HTML in an answer shows as the text it is, so nothing a model writes becomes markup.
 *
 * A link is drawn as one only when link-target.ts accepts its destination (http, https, mailto, or a
 * workspace path); anything else (javascript:, data:, a file URL) stays text. Inline code naming a
 * workspace file (`src/app.ts:12`) is a link too. Clicks are posted to the extension (open-links.ts),
 * which checks the target again.
 */
export function appendInline(target: Node, tokens: readonly Token[] | undefined): void {
  for (const token of tokens ?? []) target.appendChild(inlineNode(token as Tokens.Generic));
}

function inlineNode(token: Tokens.Generic): Node {
  switch (token.type) {
    case 'strong':
      return withChildren(h('strong'), token.tokens);
    case 'em':
      return withChildren(h('em'), token.tokens);
    case 'del':
      return withChildren(h('del'), token.tokens);
    case 'br':
      return h('br');
    case 'codespan': {
      const text = String(token.text ?? ''); // code is literal: no entities
      const code = h('code', { text });
      const target = codePathTarget(text);
      return target ? link(target, text, code) : code;
    }
    case 'link': {
      const target = linkTarget(String(token.href ?? ''));
      const label = withChildren(document.createDocumentFragment(), token.tokens);
      return target ? link(target, String(token.href), label) : label;
    }
    case 'image':
      // No remote content in the view (its CSP forbids it anyway): the alternative text stands in.
      return document.createTextNode(String(token.text ?? ''));
    case 'text':
      return token.tokens ? withChildren(document.createDocumentFragment(), token.tokens) : document.createTextNode(decodeEntities(String(token.text ?? '')));
    case 'escape':
      return document.createTextNode(String(token.text ?? ''));
    default:
      // html, tags and anything unknown: the source as written, as text.
      return document.createTextNode(String(token.raw ?? ''));
  }
}

function withChildren<T extends Node>(el: T, tokens: readonly Token[] | undefined): T {
  appendInline(el, tokens);
  return el;
}

/** An anchor whose destination the click handler reads back from data-href (link-target.ts again). */
function link(target: LinkTarget, href: string, content: Node): HTMLElement {
  const kind = target.kind === 'url' ? 'url' : 'file';
  const title = target.kind === 'url' ? target.url : target.line ? l10n.t('Open {0} at line {1}', target.path, target.line) : l10n.t('Open {0}', target.path);
  const a = h('a', { class: `md-link md-link-${kind}`, attrs: { href: target.kind === 'url' ? target.url : '#', title }, data: { href } }, content);
  return a;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: '\u00a0' };

/** The few entities marked leaves in text as written (it expects an HTML renderer to decode them). */
function decodeEntities(text: string): string {
  return text.includes('&') ? text.replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!) : text;
}
