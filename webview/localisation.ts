// The chat in VS Code's display language. The page carries the language and VS Code's bundle for it
// (chat-view-provider.ts writes it before this script); this module is imported first, so every
// l10n.t() of the other modules, even at their top level, already sees the bundle. A page without
// it (the view-script tests) or with a malformed one speaks English, the strings in the source.
import * as l10n from '@vscode/l10n';
import { WEBVIEW_L10N_ELEMENT_ID, WebviewL10nSchema } from '../src/shared/protocol';

function pageL10n(): { language: string; bundle: Record<string, string> } | undefined {
  const text = document.getElementById(WEBVIEW_L10N_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    const parsed = WebviewL10nSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const page = pageL10n();
if (page) {
  l10n.config({ contents: page.bundle });
  if (page.language) document.documentElement.lang = page.language;
}

/** Text for an attribute or element of an HTML template: the translation may hold any character. */
export function html(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
