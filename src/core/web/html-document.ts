// turndown's own HTML parser (domino), typed here by the little of the DOM the web tools use:
// the core is compiled without the DOM library, and this keeps the parser behind one seam.
import { htmlLibs } from '../lazy-libraries';

export interface HtmlNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  parentNode: HtmlNode | null;
  childNodes: ArrayLike<HtmlNode>;
}

export interface HtmlElement extends HtmlNode {
  tagName: string;
  children: ArrayLike<HtmlElement>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): ArrayLike<HtmlElement>;
  remove(): void;
}

export interface HtmlDocument {
  title: string;
  body: HtmlElement | null;
  documentElement: HtmlElement;
  querySelector(selector: string): HtmlElement | null;
  querySelectorAll(selector: string): ArrayLike<HtmlElement>;
}

export function parseHtml(html: string): HtmlDocument {
  return htmlLibs().createDocument(html) as HtmlDocument;
}

/** Every element matching `selector`, as an array (removing them while iterating is safe). */
export function all(root: HtmlDocument | HtmlElement, selector: string): HtmlElement[] {
  return Array.from(root.querySelectorAll(selector));
}

/** Text with runs of whitespace collapsed. */
export function textOf(node: HtmlNode | null | undefined): string {
  return (node?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The base for relative links: `<base href>` resolved against the page's own URL. */
export function baseUrlOf(doc: HtmlDocument, pageUrl: string): string {
  const base = doc.querySelector('base[href]')?.getAttribute('href');
  if (!base) return pageUrl;
  try {
    return new URL(base, pageUrl).href;
  } catch {
    return pageUrl;
  }
}
