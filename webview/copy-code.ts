import * as l10n from '@vscode/l10n';
import type { WebviewToExtension } from '../src/shared/protocol';

const FEEDBACK_MS = 2_000;

/**
 * The Copy buttons of code blocks, one listener for all of them (they come and go with the
 * windowed transcript). The raw code is copied, i.e. the code element's text, not the highlighted
 * markup. The webview's own clipboard is tried first (VS Code allows it in webviews); where it is
 * refused (Firefox, a document without focus) the extension copies it instead. The button says
 * "Copied" for a moment either way.
 */
export function handleCodeCopy(root: HTMLElement, post: (message: WebviewToExtension) => void): void {
  root.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.('button.code-copy');
    const code = button?.closest('.code-block')?.querySelector('pre > code');
    if (!(button instanceof HTMLButtonElement) || !code) return;
    const text = code.textContent ?? '';
    const viaExtension = () => post({ type: 'copyText', text });
    try {
      navigator.clipboard.writeText(text).catch(viaExtension);
    } catch {
      viaExtension(); // no clipboard API at all
    }
    copied(button);
  });
}

const timers = new WeakMap<HTMLButtonElement, ReturnType<typeof setTimeout>>();

function copied(button: HTMLButtonElement): void {
  clearTimeout(timers.get(button));
  button.textContent = l10n.t('Copied');
  button.setAttribute('aria-label', l10n.t('Copied'));
  button.dataset.copied = '';
  timers.set(
    button,
    setTimeout(() => {
      button.textContent = l10n.t('Copy');
      button.setAttribute('aria-label', l10n.t('Copy code'));
      delete button.dataset.copied;
    }, FEEDBACK_MS),
  );
}
