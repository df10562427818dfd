// Stand-ins for the vscode namespace's Language Model classes (unit tests run outside VS Code):
// the same constructor shapes, so the conversions build what VS Code would receive.
import type { LmApi } from '../../../../src/vscode/lm/lm-api';

export class TextPart { constructor(readonly value: string) {} }
export class ToolCallPart { constructor(readonly callId: string, readonly name: string, readonly input: object) {} }
export class ToolResultPart { constructor(readonly callId: string, readonly content: unknown[]) {} }
export class ChatMessage {
  constructor(readonly role: 'user' | 'assistant', readonly content: unknown[]) {}
  static User(content: string | unknown[]) { return new ChatMessage('user', typeof content === 'string' ? [new TextPart(content)] : content); }
  static Assistant(content: string | unknown[]) { return new ChatMessage('assistant', typeof content === 'string' ? [new TextPart(content)] : content); }
}
export class LmError extends Error {
  constructor(message: string, readonly code: string) { super(message); }
  static NoPermissions(m = '') { return new LmError(m, 'NoPermissions'); }
  static Blocked(m = '') { return new LmError(m, 'Blocked'); }
  static NotFound(m = '') { return new LmError(m, 'NotFound'); }
}
class TokenSource {
  private listeners: Array<() => void> = [];
  cancelled = false;
  readonly token = {
    get isCancellationRequested() { return false; },
    onCancellationRequested: (l: () => void) => { this.listeners.push(l); return { dispose() {} }; },
  };
  cancel() { this.cancelled = true; this.listeners.forEach((l) => l()); }
  dispose() {}
}

/** A fake model: answers `parts` (or throws `error`), records what it was sent. */
export function fakeModel(options: { parts?: unknown[]; error?: Error; id?: string } = {}) {
  const sent: Array<{ messages: ChatMessage[]; options: { tools?: Array<{ name: string }> } }> = [];
  return {
    sent,
    id: options.id ?? 'gpt-4.1', family: 'gpt-4.1', vendor: 'copilot', name: 'GPT-4.1', version: '1', maxInputTokens: 128000,
    async sendRequest(messages: ChatMessage[], opts: { tools?: Array<{ name: string }> }) {
      sent.push({ messages, options: opts });
      if (options.error) throw options.error;
      const parts = options.parts ?? [];
      return { stream: (async function* () { yield* parts; })(), text: (async function* () {})() };
    },
    async countTokens(input: string | ChatMessage) {
      return typeof input === 'string' ? input.length : input.content.length * 10;
    },
  };
}

export function fakeApi(models: unknown[]): LmApi {
  return {
    lm: { selectChatModels: async () => models },
    LanguageModelChatMessage: ChatMessage,
    LanguageModelTextPart: TextPart,
    LanguageModelToolCallPart: ToolCallPart,
    LanguageModelToolResultPart: ToolResultPart,
    LanguageModelError: LmError,
    CancellationTokenSource: TokenSource,
    LanguageModelChatToolMode: { Auto: 1, Required: 2 },
  } as unknown as LmApi;
}
