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
  | { role: 'user'; content: string; images?: ImageAttachment[] }
  | { role: 'assistant'; content: string; toolCalls: ToolCall[] }
  /**
   * `summary` (50–200 chars) stands in for the content once the result ages (masking, pruning,
   * compaction input) and is what the UI shows on the collapsed card.
   */
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError: boolean; summary?: string };

export type AssistantMessage = Extract<Message, { role: 'assistant' }>;
export type ToolMessage = Extract<Message, { role: 'tool' }>;
export type UserMessage = Extract<Message, { role: 'user' }>;

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
