/** Provider-neutral conversation messages. Adapters translate these to each wire format. */
import type { ImageAttachment } from '../shared/image-attachment';

export type { ImageAttachment } from '../shared/image-attachment';

export interface ToolCall {
  id: string;
  name: string;
  /** The raw JSON text the model produced; parsed and validated only at dispatch. */
  arguments: string;
}

export type Message =
  | { role: 'system'; content: string }
  /**
   * `images`: vision input the user attached (the text stays a plain string for every consumer that
   * only reads text; providers add the images in their own wire format).
   */
  | { role: 'user'; content: string; images?: ImageAttachment[]; origin?: UserMessageOrigin }
  /**
   * `providerItems`: what the API that wrote this answer asked to get back on later calls (OpenAI
   * Responses: reasoning items with their encrypted content, since nothing is stored on its side).
   */
  | { role: 'assistant'; content: string; toolCalls: ToolCall[]; providerItems?: ProviderItems }
  /**
   * `summary` (50–200 chars) stands in for the content once the result ages (masking, pruning,
   * compaction input) and is what the UI shows on the collapsed card.
   */
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError: boolean; summary?: string };

/**
 * Opaque items one API returned with an answer, to be sent back verbatim with the conversation.
 * `api` names the only provider that reads them (`openai-responses`); every other one ignores them,
 * so a conversation moves between providers without losing its text. They are kept in the session
 * transcript and survive compaction with the message that holds them.
 */
export interface ProviderItems {
  api: string;
  /** The model that wrote them: encrypted reasoning is only readable by the model that made it. */
  model?: string;
  items: Array<Record<string, unknown>>;
}

export type AssistantMessage = Extract<Message, { role: 'assistant' }>;
export type ToolMessage = Extract<Message, { role: 'tool' }>;
export type UserMessage = Extract<Message, { role: 'user' }>;

/**
 * Who wrote a user-role message, kept beside the text the model reads: the harness adds its
 * reminders, hook context, undo notes and compaction summaries as user messages too (the model
 * must read them), and a resumed chat shows only what the user typed.
 */
export type UserMessageOrigin =
  /** Typed by the user; `text` is their own words (the message adds what the chat attached and the plan-mode note). */
  | { kind: 'prompt'; text: string }
  /** Typed while the agent worked, delivered inside the injected-follow-up reminder. */
  | { kind: 'followup'; text: string }
  /** The middle of the conversation was replaced by a summary. */
  | { kind: 'compaction' }
  /** The user undid steps; `steps` as the note names them ("step 4", "steps 3, 4"). */
  | { kind: 'undo'; steps: string }
  /** Any other reminder or hook context: for the model only. */
  | { kind: 'note' };

/** A harness note for the model, as a user message. */
export function noteMessage(content: string): UserMessage {
  return { role: 'user', content, origin: { kind: 'note' } };
}

/** A call's arguments as JSON when they parse, else the raw text (for display and hook input). */
export function parseToolArguments(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}

/** A call's arguments as an object; `{}` when they are not a JSON object (malformed model output). */
export function toolArgumentsObject(json: string): Record<string, unknown> {
  const value = parseToolArguments(json);
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}
