import type { Transcript } from './transcript';

/**
 * The chat's own lines between the messages: a notice (info or warning, with the slash command it
 * answers) and an error card. Their text is already in the display language (l10n.t at the caller),
 * which test/unit/l10n checks for every call of these.
 */
export class ChatNotices {
  constructor(private readonly entries: Transcript) {}

  notice(text: string, level?: 'info' | 'warning', command?: string): void {
    this.entries.upsert({
      kind: 'notice',
      id: this.entries.newId(),
      text,
      ...(level ? { level } : {}),
      ...(command ? { command } : {}),
    });
  }

  error(text: string): void {
    this.entries.upsert({ kind: 'error', id: this.entries.newId(), text });
  }
}
