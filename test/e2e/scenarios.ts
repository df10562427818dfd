import type { RecordedRequest } from '../fixtures/fake-provider';

/**
 * For fake-model responders that script several scenarios in one chat: which scenario a request
 * belongs to (the latest user prompt that starts with one of the keys) and what the model has done
 * in it so far (its tool calls, and the results they got, in order).
 */

type Message = { role: string; content?: unknown; tool_calls?: Array<{ function: { name: string } }> };

export interface Scenario {
  /** The key the scenario's prompt starts with; undefined when no prompt starts with a key. */
  key?: string;
  /** The names of the tools the model called since that prompt. */
  calls: string[];
  /** The tool results since that prompt. */
  results: string[];
}

export function textOf(m: { content?: unknown }): string {
  if (typeof m.content === 'string') return m.content;
  return Array.isArray(m.content) ? m.content.map((p: { text?: string }) => p.text ?? '').join('') : '';
}

export function scenarioOf(req: RecordedRequest, keys: readonly string[]): Scenario {
  const messages: Message[] = Array.isArray(req.body?.messages) ? req.body.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    const key = m.role === 'user' ? keys.find((k) => textOf(m).startsWith(k)) : undefined;
    if (!key) continue;
    const since = messages.slice(i + 1);
    return {
      key,
      calls: since.flatMap((s) => (s.role === 'assistant' ? (s.tool_calls ?? []).map((c) => c.function.name) : [])),
      results: since.filter((s) => s.role === 'tool').map(textOf),
    };
  }
  return { calls: [], results: [] };
}

/** Whether a request is one of the agent's action calls (they offer tools; side calls do not). */
export function isActionCall(req: RecordedRequest): boolean {
  return Array.isArray(req.body?.tools) && req.body.tools.length > 0;
}
