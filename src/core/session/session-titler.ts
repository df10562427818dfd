// Session titles. A first prompt that reads as a title is the title (no model call); otherwise, as
// in the paper (§2.5.1), the compact model names the session from its latest messages after the
// first exchange. Best effort: any failure (no model, an error, a timeout, an empty or useless
// answer) leaves the first-line title in place.
import { callModel } from '../llm/model-call';
import type { ResolvedRoleModel } from '../llm/role-resolver';
import type { AssistantMessage, Message } from '../messages';
import { renderTranscript } from '../memory/transcript';
import { loadTemplate, renderTemplate } from '../templates';
import { silentUI } from '../ui';
import { makeTitle, TITLE_MAX } from './session-naming';
import { originOf } from './user-message-origin';

/** The messages the title is made from (paper: the last 4), tool traffic left out. */
const TITLE_MESSAGES = 4;
const LIMITS = { maxMessageChars: 600, maxToolChars: 200, maxTotalChars: 3_000 };

/** Whether the conversation holds a first exchange: a request and an answer in words. */
export function hasFirstExchange(messages: readonly Message[]): boolean {
  return messages.some((m) => m.role === 'user') && messages.some((m) => m.role === 'assistant' && m.content.trim() !== '');
}

/**
 * The first prompt as the session's title when it makes a usable one: the words the user typed
 * (harness notes and attached context left out), on one line, with a letter in it, within the
 * title's 50 characters. A longer or multi-line prompt (a pasted log, code, a long description)
 * is left to the model.
 */
export function titleFromPrompt(messages: readonly Message[]): string | undefined {
  const first = messages.find((m) => m.role === 'user');
  const origin = first ? originOf(first) : undefined;
  const text = origin?.kind === 'prompt' ? origin.text.trim() : '';
  if (!text || text.includes('\n') || text.length > TITLE_MAX || !/\p{L}/u.test(text)) return undefined;
  return makeTitle(text);
}

/** A title of at most 50 characters, or undefined when none could be made. Never throws. */
export async function generateSessionTitle(model: ResolvedRoleModel, messages: readonly Message[], signal: AbortSignal): Promise<string | undefined> {
  const template = loadTemplate('session/title.md');
  if (!template) return undefined;
  const spoken = messages.filter((m) => (m.role === 'user' || m.role === 'assistant') && m.content.trim() !== '').slice(-TITLE_MESSAGES);
  if (spoken.length === 0) return undefined;
  const reply: AssistantMessage = { role: 'assistant', content: '', toolCalls: [] };
  try {
    await callModel(
      reply,
      model,
      {
        messages: [
          { role: 'system', content: renderTemplate(template, { MAX_CHARS: String(TITLE_MAX) }) },
          { role: 'user', content: renderTranscript(spoken.map(withoutCalls), LIMITS) },
        ],
        tools: [],
        purpose: 'title',
      },
      { ui: silentUI, usage: { promptTokens: 0, cachedTokens: 0, outputTokens: 0 }, signal },
      { streamText: false },
    );
  } catch {
    return undefined;
  }
  return cleanTitle(reply.content);
}

/** The first line of the answer without quotes, a "Title:" label or a final period. */
export function cleanTitle(answer: string): string | undefined {
  const line = answer
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  if (!line) return undefined;
  const bare = line
    .replace(/^(\*\*)?title(\*\*)?\s*:\s*/i, '')
    .replace(/^["'`*#\s]+|["'`*\s]+$/g, '')
    .replace(/\.$/, '');
  return bare ? makeTitle(bare) : undefined;
}

function withoutCalls(m: Message): Message {
  return m.role === 'assistant' ? { ...m, toolCalls: [] } : m;
}
