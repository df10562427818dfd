import * as l10n from '@vscode/l10n';
import { ProviderError } from '../../core/llm/provider-error';
import type { LmApi } from './lm-api';

/**
 * A Language Model API failure as a ProviderError the chat shows as its error card, never an error
 * page: the user declined (or has not yet given) consent, the model's vendor blocked the request
 * (quota, policy), or the model is gone. `code` is the API's LanguageModelError code.
 */
export function toLmProviderError(api: Pick<LmApi, 'LanguageModelError'>, err: unknown, modelLabel: string, aborted: boolean): ProviderError {
  if (err instanceof ProviderError) return err;
  if (aborted || (err instanceof Error && (err.name === 'Canceled' || err.name === 'CancellationError'))) {
    return new ProviderError('aborted', 'The request was stopped.');
  }
  const code = lmErrorCode(api, err);
  const detail = err instanceof Error ? err.message : String(err);
  if (code === api.LanguageModelError.NoPermissions().code) {
    return new ProviderError('auth', l10n.t('OpenDev may not use {0}: VS Code asked whether OpenDev may use this language model and was not allowed. Send the message again to be asked again, or choose another model with "OpenDev: Select Model". ({1})', modelLabel, detail));
  }
  if (code === api.LanguageModelError.Blocked().code) {
    return new ProviderError('rate_limit', l10n.t('{0} refused the request: its provider blocked it (a quota or a policy). Try again later or choose another model with "OpenDev: Select Model". ({1})', modelLabel, detail));
  }
  if (code === api.LanguageModelError.NotFound().code) {
    return new ProviderError('bad_request', l10n.t('{0} is not available any more. Choose another model with "OpenDev: Select Model". ({1})', modelLabel, detail));
  }
  return new ProviderError('server', l10n.t('{0} failed: {1}', modelLabel, detail));
}

/** The error's LanguageModelError code; errors crossing from another extension keep it on `code`. */
function lmErrorCode(api: Pick<LmApi, 'LanguageModelError'>, err: unknown): string | undefined {
  if (err instanceof api.LanguageModelError) return err.code;
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** No model answers to the setting: said before any request is made. */
export function noLmModelError(selector: string): ProviderError {
  return new ProviderError('bad_request', l10n.t('No language model in VS Code matches "{0}" (opendev.model). Install or sign in to an extension that provides models (GitHub Copilot, for example), or choose one with "OpenDev: Select Model".', selector));
}
