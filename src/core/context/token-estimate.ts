import type { Message } from '../messages';

/**
 * A local token estimate (≈ 4 characters per token) for the moments before a provider has reported
 * a real prompt size. Deliberately simple and cheap: the staged compactor calibrates against the
 * API-reported number as soon as there is one, and uses this only for what was added since.
 */
export const CHARS_PER_TOKEN = 4;
/** Role markers, separators and ids a provider wraps around every message. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** The wrapping of one tool call (type, id, name field) besides its name and arguments. */
export const TOOL_CALL_OVERHEAD_TOKENS = 3;
/**
 * One attached image: what a large screenshot costs (Anthropic caps an image near 1,600 tokens;
 * OpenAI's high detail is of the same order). Its base64 text is not what the model is billed for.
 */
export const IMAGE_TOKENS = 1_600;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimateMessageTokens(message: Message): number {
  let tokens = MESSAGE_OVERHEAD_TOKENS + estimateTextTokens(message.content);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls) {
      tokens += TOOL_CALL_OVERHEAD_TOKENS + estimateTextTokens(call.name) + estimateTextTokens(call.arguments);
    }
  } else if (message.role === 'tool') {
    tokens += estimateTextTokens(message.name);
  } else if (message.role === 'user' && message.images) {
    tokens += message.images.length * IMAGE_TOKENS;
  }
  return tokens;
}

export function estimateTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}
