/** Provider-neutral conversation messages. Adapters translate these to each wire format. */

export interface ToolCall {
  id: string;
  name: string;
  /** The raw JSON text the model produced; parsed and validated only at dispatch. */
  arguments: string;
}

export type Message =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError: boolean };

export type AssistantMessage = Extract<Message, { role: 'assistant' }>;
export type ToolMessage = Extract<Message, { role: 'tool' }>;
