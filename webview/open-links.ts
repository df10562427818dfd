import { linkTarget } from '../src/shared/link-target';
import type { WebviewToExtension } from '../src/shared/protocol';

/**
 * Clicks on links in answers (markdown-inline.ts draws them), one listener for all of them: the view
 * never navigates; it asks the extension to open the file or the web address (`openLink`), and the
 * extension checks the target again. The destination is read back from data-href and classified
 * once more here, so an anchor that did not come from the renderer cannot post anything else.
 */
export function handleLinks(root: HTMLElement, post: (message: WebviewToExtension) => void): void {
  root.addEventListener('click', (event) => {
    const anchor = (event.target as Element | null)?.closest?.('a.md-link');
    if (!(anchor instanceof HTMLAnchorElement)) return;
    event.preventDefault();
    const href = anchor.dataset.href;
    const target = href === undefined ? undefined : linkTarget(href);
    if (target) post({ type: 'openLink', target });
  });
}

