import type { Message } from '../messages';

/**
 * The history cut into exchanges: a user message, or an assistant message together with the tool
 * results answering its calls. A cut between exchanges never separates a tool result from its call,
 * so every slice is a conversation a provider accepts.
 */
export function exchanges(history: readonly Message[]): Message[][] {
  const out: Message[][] = [];
  for (const m of history) {
    if (m.role === 'system') continue;
    const last = out[out.length - 1];
    if (m.role === 'tool' && last) last.push(m);
    else out.push([m]);
  }
  return out;
}

/** The last `count` exchanges verbatim (working memory) and everything before them. */
export function splitWorkingMemory(history: readonly Message[], count: number): { older: Message[]; recent: Message[] } {
  const all = exchanges(history);
  const cut = Math.max(0, all.length - count);
  return { older: all.slice(0, cut).flat(), recent: all.slice(cut).flat() };
}
