import type { AssistantMessage, Message, ToolCall, ToolMessage } from '../messages';

/** The content of the synthetic result given to a tool call whose result was never recorded. */
export const MISSING_RESULT_TEXT = 'No result was recorded for this call';

export interface RepairOutcome {
  messages: Message[];
  /** One human-readable line per repair; empty when the list was already valid. */
  repairs: string[];
}

/**
 * Makes a message list valid for every provider (issue 5 part 6): each assistant tool call is
 * followed — before any other user/assistant message — by exactly one result for it, in call
 * order. Missing results get a synthetic error result; orphan results (no call claims them, or a
 * second result for an already answered call) are dropped; results found elsewhere are moved right
 * after their call. Idempotent. The input array and its messages are never mutated.
 */
export function repairHistory(messages: readonly Message[]): RepairOutcome {
  const repairs: string[] = [];
  // Which assistant message (by index) claims each call id: the first one that makes the call.
  const claimedBy = new Map<string, number>();
  messages.forEach((m, i) => {
    if (m.role === 'assistant') for (const call of m.toolCalls) if (!claimedBy.has(call.id)) claimedBy.set(call.id, i);
  });
  // The first result for each claimed id, with its position.
  const resultFor = new Map<string, { message: ToolMessage; index: number }>();
  messages.forEach((m, i) => {
    if (m.role !== 'tool') return;
    if (!claimedBy.has(m.toolCallId)) {
      repairs.push(`dropped an orphan result of ${m.name} (call ${m.toolCallId}): no assistant message made that call`);
    } else if (resultFor.has(m.toolCallId)) {
      repairs.push(`dropped a second result of ${m.name} (call ${m.toolCallId})`);
    } else resultFor.set(m.toolCallId, { message: m, index: i });
  });

  const out: Message[] = [];
  const answered = new Set<string>();
  messages.forEach((m, i) => {
    if (m.role === 'tool') return; // emitted right after their call, or dropped above
    out.push(m);
    if (m.role !== 'assistant') return;
    for (const call of m.toolCalls) {
      if (claimedBy.get(call.id) !== i || answered.has(call.id)) {
        // The same id called twice: the later call gets its own synthetic result.
        repairs.push(`call ${call.id} (${call.name}) repeats an earlier call id; a synthetic error result was added`);
        out.push(syntheticResult(call));
        continue;
      }
      answered.add(call.id);
      const found = resultFor.get(call.id);
      if (!found) {
        repairs.push(`no result was recorded for ${call.name} (call ${call.id}); a synthetic error result was added`);
        out.push(syntheticResult(call));
        continue;
      }
      if (!inResultBlock(messages, i, found.index)) {
        repairs.push(`moved the result of ${call.name} (call ${call.id}) right after its call`);
      }
      out.push(found.message);
    }
  });
  return { messages: out, repairs };
}

/** `repairHistory` applied to `messages` itself (the array is rewritten; message objects are reused). */
export function repairInPlace(messages: Message[]): string[] {
  const { messages: repaired, repairs } = repairHistory(messages);
  if (repairs.length > 0) messages.splice(0, messages.length, ...repaired);
  return repairs;
}

/** True when the list needs no repair. */
export function isValidHistory(messages: readonly Message[]): boolean {
  return repairHistory(messages).repairs.length === 0;
}

/**
 * Drops the most recent exchange so the rest still ends cleanly (Continue's `pruneLastMessage`,
 * adapted: a tool call never loses its result). A last-resort shrink for a history that is still
 * over the window after every other stage.
 */
export function pruneLastExchange(messages: readonly Message[]): Message[] {
  if (messages.length <= 1) return [];
  const secondToLast = messages[messages.length - 2];
  if (secondToLast.role === 'user') return messages.slice(0, -2);
  if (secondToLast.role === 'tool') {
    // A message after a call block: it goes with the whole block (results and their assistant).
    let start = messages.length - 2;
    while (start > 0 && messages[start - 1].role === 'tool') start--;
    if (start > 0 && isCaller(messages[start - 1])) start--;
    return messages.slice(0, start);
  }
  if (secondToLast.role === 'assistant' && secondToLast.toolCalls.length > 0) {
    // The call block ends the history: it goes with the request that started it.
    let start = messages.length - 2;
    if (start > 0 && messages[start - 1].role === 'user') start--;
    return messages.slice(0, start);
  }
  return messages.slice(0, -1);
}

function isCaller(m: Message): m is AssistantMessage {
  return m.role === 'assistant' && m.toolCalls.length > 0;
}

function inResultBlock(messages: readonly Message[], callIndex: number, resultIndex: number): boolean {
  if (resultIndex < callIndex) return false;
  for (let k = callIndex + 1; k < resultIndex; k++) if (messages[k].role !== 'tool') return false;
  return true;
}

function syntheticResult(call: ToolCall): ToolMessage {
  return { role: 'tool', toolCallId: call.id, name: call.name, content: MISSING_RESULT_TEXT, isError: true };
}
