import * as l10n from '@vscode/l10n';
import { join } from './call-subjects';

/** What a provider retry is about; the core's RetryInfo has it (and more). */
export interface RetryFacts {
  attempt: number;
  maxAttempts: number;
  reason: string;
}

/**
 * The retry line's words, the chat's own sentence (webview/retry-line.ts says it with the same
 * message, so both read and translate alike), then the reason: "Provider unavailable — retrying in
 * 4 s (attempt 2 of 6) · 503 Service Unavailable".
 */
export function retryWords(info: RetryFacts, secondsLeft: number): string {
  const status =
    secondsLeft > 0
      ? l10n.t('Provider unavailable — retrying in {0} s (attempt {1} of {2})', secondsLeft, info.attempt, info.maxAttempts)
      : l10n.t('Provider unavailable — retrying now (attempt {0} of {1})', info.attempt, info.maxAttempts);
  return join(status, info.reason.replace(/\s+/g, ' ').trim() || undefined);
}
