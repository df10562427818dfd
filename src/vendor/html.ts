// turndown (HTML → markdown) and domino, the HTML parser it ships with: dist/vendor/html.js, loaded
// when a web tool first reads a page (see scripts/lazy-bundles.mjs; reach it only through htmlLibs()).
import TurndownService from 'turndown';

// domino has no type declarations: core/web/html-document.ts types the little of the DOM it uses.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const domino = require('@mixmark-io/domino') as { createDocument(html: string, force?: boolean): unknown };

export { TurndownService };

/** A whole document from `html`, however malformed. */
export function createDocument(html: string): unknown {
  return domino.createDocument(html, true);
}
