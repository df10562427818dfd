import type { Message, ToolMessage, UserMessage } from '../core/messages';
import { originOf } from '../core/session/user-message-origin';
import type { ChatEntry } from '../shared/protocol';
import { toolHeadline } from '../wording/tool-headline';

/**
 * A resumed card shows this much of a tool's output: a long session's transcript stays small
 * enough to send and keep in the view (the model saw the whole output; the session file has it).
 */
export const RESUMED_OUTPUT_MAX_CHARS = 8_000;

/**
 * The chat entries of a saved conversation, as the chat showed them: the user's messages (not the
 * harness's reminders), the answers, and a tool card per call with its summary line and output.
 * Tool cards keep the live chat's ids (`tool-<call id>`), so the undo history's steps find them.
 */
export function transcriptFromMessages(messages: readonly Message[], newId: () => string): ChatEntry[] {
  const results = new Map<string, ToolMessage>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m);
  const entries: ChatEntry[] = [];
  const used = new Set<string>();
  for (const m of messages) {
    if (m.role === 'user') {
      const entry = userEntry(m, newId);
      if (entry) entries.push(entry);
    } else if (m.role === 'assistant') {
      if (m.content.trim()) entries.push({ kind: 'assistant', id: newId(), text: m.content });
      for (const call of m.toolCalls) {
        // A provider may reuse call ids across turns; each card still needs its own id.
        let id = `tool-${call.id}`;
        while (used.has(id)) id = `${id}+`;
        used.add(id);
        entries.push(toolCard(id, call, results.get(call.id)));
      }
    }
  }
  return entries;
}

function userEntry(message: UserMessage, newId: () => string): ChatEntry | undefined {
  const origin = originOf(message);
  switch (origin.kind) {
    case 'prompt':
    case 'followup':
      return origin.text.trim() ? { kind: 'user', id: newId(), text: origin.text } : undefined;
    case 'compaction':
      return { kind: 'notice', id: newId(), text: 'Earlier messages were summarised here to free context (compaction).' };
    case 'undo':
      return { kind: 'notice', id: newId(), text: `Undid ${origin.steps}.` };
    case 'note':
      return undefined;
  }
}

function toolCard(id: string, call: { name: string; arguments: string }, result: ToolMessage | undefined): ChatEntry {
  if (!result) return { kind: 'tool', id, name: call.name, args: call.arguments, status: 'error', summary: '✗ No result was saved for this call.' };
  return {
    kind: 'tool',
    id,
    name: call.name,
    args: call.arguments,
    status: result.isError ? 'error' : 'ok',
    // The same words as the live card (how long it took was not saved).
    headline: toolHeadline({ name: call.name, args: call.arguments, ended: { ok: !result.isError, summary: result.summary ?? firstLine(result.content) } }),
    summary: result.summary ?? firstLine(result.content),
    output: clipped(result.content),
  };
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function clipped(output: string): string {
  if (output.length <= RESUMED_OUTPUT_MAX_CHARS) return output;
  const more = (output.length - RESUMED_OUTPUT_MAX_CHARS).toLocaleString('en-US');
  return `${output.slice(0, RESUMED_OUTPUT_MAX_CHARS)}\n… (${more} more characters; the session file keeps them all)`;
}
