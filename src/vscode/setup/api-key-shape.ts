// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';
import type { ProviderKind } from '../../core/config/provider-settings';

/** What is wrong with a pasted key: an `error` blocks saving it, a `warning` only says so. */
export interface KeyShapeProblem {
  severity: 'error' | 'warning';
  message: string;
}

const MIN_LENGTH = 8;

/** The prefix each provider's own keys start with (none for OpenAI-compatible servers). */
const KEY_PREFIX: Partial<Record<ProviderKind, { prefix: string; label: string }>> = {
  openai: { prefix: 'sk-', label: 'OpenAI' },
  anthropic: { prefix: 'sk-ant-', label: 'Anthropic' },
};

/**
 * A loose check of a key's shape, before it is stored. Only what cannot be a key is refused
 * (spaces, quotes, a pasted "Bearer", too short); an unexpected prefix is a warning, since
 * Azure OpenAI and proxies behind `opendev.baseUrl` use keys of their own.
 */
export function checkApiKeyShape(provider: ProviderKind, key: string): KeyShapeProblem | undefined {
  const value = key.trim();
  if (!value) return { severity: 'error', message: l10n.t('Enter a key, or press Escape to cancel.') };
  if (/^bearer\s/i.test(value)) return { severity: 'error', message: l10n.t('Paste the key alone, without "Bearer ".') };
  if (/^["'`]|["'`]$/.test(value)) return { severity: 'error', message: l10n.t('Paste the key without quotes.') };
  if (/\s/.test(value)) return { severity: 'error', message: l10n.t('A key has no spaces or line breaks: copy it again.') };
  if (/[^\x21-\x7e]/.test(value)) return { severity: 'error', message: l10n.t('A key holds only plain ASCII letters, digits and punctuation: copy it again.') };
  if (value.length < MIN_LENGTH) return { severity: 'error', message: l10n.t('That is too short for an API key ({0} characters).', value.length) };
  const expected = KEY_PREFIX[provider];
  if (!expected) return undefined;
  if (provider === 'openai' && value.startsWith('sk-ant-')) {
    return { severity: 'warning', message: l10n.t('This looks like an Anthropic key, but the provider is OpenAI. Choose the provider first if that is not what you meant.') };
  }
  if (!value.startsWith(expected.prefix)) {
    return { severity: 'warning', message: l10n.t('{0} keys usually start with "{1}". Saving it anyway is fine for a proxy or Azure endpoint.', expected.label, expected.prefix) };
  }
  return undefined;
}
