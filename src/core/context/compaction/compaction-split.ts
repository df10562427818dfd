import type { Message } from '../../messages';
import { estimateTokens } from '../token-estimate';
import { isCompactionSummary } from './compaction-texts';

/**
 * Where a full compaction cuts the history: the head (up to and including the user's first
 * message, the task) and the tail (the most recent messages) stay verbatim; the middle is
 * summarised. The user's latest message, when it falls in the middle, is kept verbatim too (it is
 * what the agent is working on now). The tail never starts on a tool result, so an assistant's tool
 * calls and their results always stay on the same side of the cut.
 */
export interface CompactionSplit {
  head: Message[];
  /** Everything between head and tail: what the summary replaces (the last request included). */
  middle: Message[];
  /** The last user message when it is in the middle: kept verbatim after the summary as well. */
  lastRequest?: Message;
  tail: Message[];
}

/** The paper: keep 3–10 recent messages verbatim. */
export const MIN_TAIL_MESSAGES = 3;
export const MAX_TAIL_MESSAGES = 10;

/** 3 for a short conversation, growing by one per 4 messages, at most 10. */
export function adaptiveTailSize(messageCount: number): number {
  return Math.min(MAX_TAIL_MESSAGES, Math.max(MIN_TAIL_MESSAGES, Math.floor(messageCount / 4)));
}

export interface SplitOptions {
  /** The tail shrinks (down to 3 messages) while it is larger than this many tokens. */
  tailTokenBudget?: number;
}

export function splitForCompaction(history: readonly Message[], options: SplitOptions = {}): CompactionSplit {
  const n = history.length;
  const taskIndex = history.findIndex((m) => m.role === 'user');
  // Where a tail may start: after the task, on anything but a tool result.
  const starts: number[] = [];
  for (let i = taskIndex + 1; i < n; i++) if (history[i]!.role !== 'tool') starts.push(i);
  if (starts.length === 0) return { head: history.slice(0, taskIndex + 1), middle: history.slice(taskIndex + 1), tail: [] };

  // The latest start that still gives the wanted size; when even the earliest gives fewer, the earliest.
  const wanted = adaptiveTailSize(n);
  let k = starts.length - 1;
  while (k > 0 && n - starts[k]! < wanted) k--;
  const budget = options.tailTokenBudget;
  if (budget !== undefined) {
    while (k < starts.length - 1 && n - starts[k + 1]! >= MIN_TAIL_MESSAGES && estimateTokens(history.slice(starts[k]!)) > budget) k++;
  }
  const tailStart = starts[k]!;

  const head = history.slice(0, taskIndex + 1);
  const middle = history.slice(taskIndex + 1, tailStart);
  const tail = history.slice(tailStart);
  const lastUser = middle.map((m) => m.role === 'user' && !isCompactionSummary(m)).lastIndexOf(true);
  if (lastUser < 0 || tail.some((m) => m.role === 'user')) return { head, middle, tail };
  return { head, middle, lastRequest: middle[lastUser], tail };
}
