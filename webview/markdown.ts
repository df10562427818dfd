import { codeBlock } from './code-block';

/**
 * A small, safe markdown subset for answers, traces and plans: fenced code blocks (highlighted,
 * with a copy button), headings, bullet and numbered lists, block quotes, paragraphs with inline
 * code, bold and italics, and line breaks. Everything goes through textContent (highlighting
 * rebuilds its spans itself), so model output can never inject markup into the webview; links stay
 * plain text.
 *
 * Streaming calls this again for every delta with the whole text so far: the parts that did not
 * change since the last call (prose, closed code blocks) keep their nodes, so only the growing tail
 * is rebuilt. A code block is highlighted once its closing fence has arrived, never while it grows.
 */
export function renderMarkdown(target: HTMLElement, text: string): void {
  const before = shown.get(target) ?? [];
  // Only a prefix of unchanged parts can stay, and only if nothing else rewrote the element meanwhile.
  let keep = before.every((part) => part.nodes.every((n) => n.parentNode === target)) ? 0 : -1;
  const now: Part[] = [];
  const fenced = text.split(/^```/m);
  fenced.forEach((source, index) => {
    const closed = index < fenced.length - 1;
    const key = index % 2 === 0 ? `prose:${source}` : `${closed ? 'closed' : 'open'}:${source}`;
    const same = before[index];
    if (keep === index && same?.key === key) {
      now.push(same);
      keep++;
    } else now.push({ key, nodes: index % 2 === 1 ? [codeBlock(source, closed)] : source.trim() ? blocks(source) : [] });
  });
  keep = Math.max(0, keep);
  const last = now.slice(0, keep).flatMap((p) => p.nodes).at(-1);
  // Everything after the last part kept goes; the new parts follow it.
  if (last) while (last.nextSibling) last.nextSibling.remove();
  else target.replaceChildren();
  target.append(...now.slice(keep).flatMap((p) => p.nodes));
  shown.set(target, now);
}

/** One fenced code block or the prose between two, as rendered, keyed by its source. */
interface Part {
  key: string;
  nodes: Node[];
}

const shown = new WeakMap<HTMLElement, Part[]>();

const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const NUMBERED = /^(\s*)(\d+)[.)]\s+(.*)$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;

/** Splits prose into blocks line by line: a heading, a list or a quote ends the paragraph before it. */
function blocks(text: string): HTMLElement[] {
  const out: HTMLElement[] = [];
  let para: string[] = [];
  let list: { el: HTMLElement; ordered: boolean } | undefined;
  let quote: string[] = [];
  const flushPara = () => {
    if (para.join('').trim()) out.push(paragraph(para.join('\n')));
    para = [];
  };
  const flushList = () => (list = undefined);
  const flushQuote = () => {
    if (quote.length > 0) {
      const q = document.createElement('blockquote');
      q.append(paragraph(quote.join('\n')));
      out.push(q);
    }
    quote = [];
  };
  for (const line of text.split('\n')) {
    const heading = HEADING.exec(line);
    const bullet = BULLET.exec(line);
    const numbered = NUMBERED.exec(line);
    const quoted = QUOTE.exec(line);
    if (!quoted) flushQuote();
    if (heading) {
      flushPara();
      flushList();
      const level = Math.min(6, heading[1]!.length + 2); // h3…h6: headings inside a chat stay modest
      const el = document.createElement(`h${level}`);
      inline(el, heading[2]!);
      out.push(el);
    } else if (bullet || numbered) {
      flushPara();
      const ordered = !bullet;
      if (!list || list.ordered !== ordered) {
        list = { el: document.createElement(ordered ? 'ol' : 'ul'), ordered };
        if (numbered && numbered[2] !== '1') list.el.setAttribute('start', numbered[2]!);
        out.push(list.el);
      }
      const li = document.createElement('li');
      const indent = (bullet ?? numbered)![1]!.length;
      if (indent >= 2) li.className = 'nested';
      inline(li, bullet ? bullet[2]! : numbered![3]!);
      list.el.append(li);
    } else if (quoted) {
      flushPara();
      flushList();
      quote.push(quoted[1]!);
    } else if (!line.trim()) {
      flushPara();
      flushList();
    } else if (list && /^\s{2,}\S/.test(line)) {
      // A continuation line of the last list item.
      const last = list.el.lastElementChild as HTMLElement;
      last.append(document.createElement('br'));
      inline(last, line.trim());
    } else {
      flushList();
      para.push(line);
    }
  }
  flushPara();
  flushQuote();
  return out;
}

function paragraph(text: string): HTMLElement {
  const p = document.createElement('p');
  inline(p, text.trim());
  return p;
}

/** Inline code, bold, italics and line breaks, appended to `target`. */
export function renderInline(target: HTMLElement, text: string): void {
  inline(target, text);
}

function inline(target: HTMLElement, text: string): void {
  const tokens = text.split(/(`[^`\n]+`|\*\*[^*\n]+\*\*|(?<![\w*])\*[^*\n\s][^*\n]*\*(?![\w*])|\n)/);
  for (const token of tokens) {
    if (!token) continue;
    if (token === '\n') target.append(document.createElement('br'));
    else if (token.startsWith('`') && token.endsWith('`') && token.length > 2) {
      const code = document.createElement('code');
      code.textContent = token.slice(1, -1);
      target.append(code);
    } else if (token.startsWith('**') && token.endsWith('**') && token.length > 4) {
      const strong = document.createElement('strong');
      strong.textContent = token.slice(2, -2);
      target.append(strong);
    } else if (token.startsWith('*') && token.endsWith('*') && token.length > 2) {
      const em = document.createElement('em');
      em.textContent = token.slice(1, -1);
      target.append(em);
    } else target.append(document.createTextNode(token));
  }
}
