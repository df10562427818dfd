import type { Message, ToolMessage } from '../../messages';
import { estimateMessageTokens } from '../token-estimate';
import { isPlaceholder, renderPlaceholder } from './placeholders';

/** What one stage did to the history. */
export interface StageOutcome {
  tokensFreed: number;
  messagesAffected: number;
}

/** Longest summary kept in a masked reference (the paper's ~15-token reference). */
const SUMMARY_MAX_CHARS = 80;

/**
 * The short summary that stands in for an aged result: the result's own `summary` when it carries
 * one (issue 5 part 2 adds it), otherwise the first non-empty line of its content, cut short, with
 * the line count when the output had several lines.
 */
export function observationSummary(message: ToolMessage): string {
  const own = (message as ToolMessage & { summary?: unknown }).summary;
  if (typeof own === 'string' && own.trim()) return clip(own.trim());
  const lines = message.content.split('\n');
  const first = lines.find((l) => l.trim())?.trim() ?? '(empty output)';
  const clipped = clip(first);
  const count = lines.filter((l) => l.trim()).length;
  return count > 1 ? `${clipped} (${count} lines)` : clipped;
}

/**
 * What a masked or pruned result said before it was reduced, while this process still holds it, so
 * a full compaction can archive the real output (the history itself only has the reference).
 */
const originals = new WeakMap<ToolMessage, string>();

export function originalContent(message: ToolMessage): string {
  return originals.get(message) ?? message.content;
}

export function isReduced(message: ToolMessage): boolean {
  return isPlaceholder('masked_observation', message.content) || isPlaceholder('pruned_observation', message.content);
}

/**
 * Masking (80%, and 90% with keepRecent = 3): every tool result older than the `keepRecent` most
 * recent ones is replaced by a short reference. Results already masked or pruned, and results the
 * reference would not shorten, are left alone, so running it twice frees nothing more.
 */
export function maskObservations(history: Message[], keepRecent: number): StageOutcome {
  const outcome: StageOutcome = { tokensFreed: 0, messagesAffected: 0 };
  for (const index of olderToolResults(history, keepRecent)) {
    const message = history[index] as ToolMessage;
    if (isReduced(message)) continue;
    const content = renderPlaceholder('masked_observation', { TOOL: message.name, SUMMARY: observationSummary(message) });
    replace(history, index, content, outcome);
  }
  return outcome;
}

/**
 * Pruning (85%): walking from the newest tool result back, results are kept while their running
 * total stays within `budgetTokens` (the newest one always is); every older result becomes
 * `[pruned] <tool>`. Masked references beyond the budget are pruned too.
 */
export function pruneObservations(history: Message[], budgetTokens: number): StageOutcome {
  const outcome: StageOutcome = { tokensFreed: 0, messagesAffected: 0 };
  let used = 0;
  let first = true;
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index];
    if (message.role !== 'tool') continue;
    const cost = estimateMessageTokens(message);
    if (first || used + cost <= budgetTokens) {
      used += cost;
      first = false;
      continue;
    }
    used = Number.POSITIVE_INFINITY; // the budget is spent: everything older is pruned
    if (isPlaceholder('pruned_observation', message.content)) continue;
    replace(history, index, renderPlaceholder('pruned_observation', { TOOL: message.name }), outcome);
  }
  return outcome;
}

/** Indices of the tool results older than the `keepRecent` most recent ones, oldest first. */
function olderToolResults(history: readonly Message[], keepRecent: number): number[] {
  const indices: number[] = [];
  history.forEach((m, i) => {
    if (m.role === 'tool') indices.push(i);
  });
  return indices.slice(0, Math.max(0, indices.length - keepRecent));
}

/** Swaps in a new message object (the old one may be shared with a transcript) when it is shorter. */
function replace(history: Message[], index: number, content: string, outcome: StageOutcome): void {
  const message = history[index] as ToolMessage;
  const next: ToolMessage = { ...message, content };
  const freed = estimateMessageTokens(message) - estimateMessageTokens(next);
  if (freed <= 0) return;
  history[index] = next;
  originals.set(next, originalContent(message));
  outcome.tokensFreed += freed;
  outcome.messagesAffected++;
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length <= SUMMARY_MAX_CHARS ? oneLine : `${oneLine.slice(0, SUMMARY_MAX_CHARS - 1)}…`;
}
