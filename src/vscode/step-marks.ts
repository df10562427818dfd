import type { StepSummary } from '../core/undo/describe-undo';
import type { ChatEntry, ChatEntryOf } from '../shared/protocol';

/**
 * Puts the undo history's steps on the chat's tool cards: the first card of each step that changed
 * files gets the step number (the card offers "Restore to here") and whether it is undone; every
 * other card gets none. Returns only the entries that change, ready to upsert.
 */
export function stepMarks(entries: readonly ChatEntry[], steps: readonly StepSummary[]): ChatEntry[] {
  const byCard = new Map<string, StepSummary>();
  for (const step of steps) for (const call of step.calls) byCard.set(`tool-${call}`, step);
  const marked = new Set<number>();
  const changed: ChatEntry[] = [];
  for (const entry of entries) {
    if (entry.kind !== 'tool') continue;
    const step = byCard.get(entry.id);
    const first = step !== undefined && !marked.has(step.step) ? step : undefined;
    if (step) marked.add(step.step);
    if (entry.step === first?.step && (entry.undone ?? false) === (first?.undone ?? false)) continue;
    changed.push(withMark(entry, first));
  }
  return changed;
}

function withMark(entry: ChatEntryOf<'tool'>, step: StepSummary | undefined): ChatEntryOf<'tool'> {
  const { step: _step, undone: _undone, ...card } = entry;
  if (!step) return card;
  return { ...card, step: step.step, ...(step.undone ? { undone: true } : {}) };
}
