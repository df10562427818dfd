import type { Message, ToolCall } from '../messages';

/**
 * The model's tool calls with ids unique in the conversation. Some OpenAI-compatible servers number
 * the calls of every response from 0 again, or send none: two calls sharing an id would leave one of
 * them without its result (the history's repair gives it "No result was recorded"). A repeated or
 * missing id gets one of the agent's own (`call_0` → `call_0_2`), which the provider sees from then
 * on; ids keep to the characters every provider accepts.
 */
export function withUniqueIds(calls: readonly ToolCall[], history: readonly Message[]): ToolCall[] {
  const used = new Set<string>();
  for (const message of history) if (message.role === 'assistant') for (const call of message.toolCalls) used.add(call.id);
  return calls.map((call) => {
    let id = call.id;
    if (!id || used.has(id)) {
      const base = (id || 'call').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 48);
      let n = 2;
      while (used.has(`${base}_${n}`)) n++;
      id = `${base}_${n}`;
    }
    used.add(id);
    return id === call.id ? call : { ...call, id };
  });
}
