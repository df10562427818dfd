// The display language for the extension's own strings. Code that calls vscode.l10n.t needs nothing;
// the modules that stay plain Node (so unit tests run them without VS Code: key checks, model rows,
// the status text) use @vscode/l10n, which starts in English until it is given VS Code's bundle. The
// chat webview cannot call either: it gets the same bundle in its page (see webviewL10n).
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { WebviewL10n } from '../shared/protocol';

/** Gives the plain-Node modules of this bundle the strings of VS Code's display language. */
export function configurePlainL10n(): void {
  const bundle = vscode.l10n.bundle;
  // No bundle: English (the source strings themselves), which is what @vscode/l10n does unconfigured.
  if (bundle) l10n.config({ contents: bundle });
}

/** What the webview needs to speak the display language: the language tag and the translated strings. */
export function webviewL10n(): WebviewL10n {
  return { language: vscode.env.language, bundle: { ...(vscode.l10n.bundle ?? {}) } };
}

/**
 * The page's l10n data as JSON inside a non-executed <script type="application/json"> (no CSP
 * exception needed): `<` is escaped so no string can close the element.
 */
export function l10nScriptJson(data: WebviewL10n): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
