import type { Message } from '../../messages';
import { estimateTextTokens } from '../token-estimate';
import { compactionText, isCompactionSummary } from './compaction-texts';
import { observationSummary } from './observation-stages';
import { textWithImageNote } from '../../images/image-texts';

/**
 * The middle of the history as the summariser reads it: one `[role] text` entry per message, tool
 * calls with their arguments, tool results whole when short and as their one-line `summary` when
 * long, so the compaction call itself fits the compact model's window. When the text is still over
 * `budgetTokens`, the detail shrinks level by level, and at the last level the oldest entries give
 * way (an "omitted" line says how many; the archive has them). A previous compaction summary is
 * returned apart, to be updated rather than summarised again.
 */
export interface SummaryInput {
  conversation: string;
  priorSummary?: string;
  /** Messages left out to fit the budget. */
  omitted: number;
}

interface Detail {
  user: number;
  assistant: number;
  args: number;
  /** Tool output up to this many characters is shown whole; longer ones by their summary. */
  wholeOutput: number;
}

/** From generous to terse; the last level is also the deterministic fallback's. */
export const DETAIL_LEVELS: readonly Detail[] = [
  { user: 4000, assistant: 2000, args: 300, wholeOutput: 1000 },
  { user: 1000, assistant: 500, args: 120, wholeOutput: 0 },
  { user: 300, assistant: 200, args: 80, wholeOutput: 0 },
];
const PRIOR_SUMMARY_MAX_CHARS = 8000;

export function summaryInput(messages: readonly Message[], budgetTokens: number, levels: readonly Detail[] = DETAIL_LEVELS): SummaryInput {
  const prior = [...messages].reverse().find(isCompactionSummary);
  const rest = messages.filter((m) => m !== prior);
  const priorSummary = prior ? clip(prior.content, PRIOR_SUMMARY_MAX_CHARS) : undefined;
  const room = budgetTokens - (priorSummary ? estimateTextTokens(priorSummary) : 0);
  let entries: string[] = [];
  for (const level of levels) {
    entries = rest.map((m) => entry(m, level));
    if (fits(entries, room)) return withPrior({ conversation: entries.join('\n'), omitted: 0 }, priorSummary);
  }
  // Still too long at the tersest level: the oldest entries go, the most recent stay.
  let omitted = 0;
  while (omitted < entries.length - 1 && !fits(entries.slice(omitted), room)) omitted++;
  const note = compactionText('omitted_messages', { COUNT: String(omitted) }) ?? `[${omitted} earlier messages omitted]`;
  return withPrior({ conversation: [note, ...entries.slice(omitted)].join('\n'), omitted }, priorSummary);
}

/** One message as one entry (an assistant's calls on lines of their own). */
export function entry(m: Message, level: Detail): string {
  switch (m.role) {
    case 'system':
      return `[${m.role}] ${clip(m.content, level.user)}`;
    case 'user':
      return `[${m.role}] ${textWithImageNote(clip(m.content, level.user), m.images)}`;
    case 'assistant': {
      const lines = m.content.trim() ? [`[assistant] ${clip(m.content, level.assistant)}`] : [];
      for (const call of m.toolCalls) lines.push(`[tool call] ${call.name} ${clip(call.arguments, level.args)}`);
      return lines.length > 0 ? lines.join('\n') : '[assistant] (no text)';
    }
    case 'tool': {
      const label = `[tool result ${m.name}${m.isError ? ', error' : ''}]`;
      if (m.content.length <= level.wholeOutput) return `${label} ${m.content}`;
      return `${label} ${m.summary?.trim() || observationSummary(m)} (${m.content.length.toLocaleString('en-US')} chars, shortened)`;
    }
  }
}

function fits(entries: readonly string[], budgetTokens: number): boolean {
  return estimateTextTokens(entries.join('\n')) <= budgetTokens;
}

function withPrior(input: SummaryInput, priorSummary: string | undefined): SummaryInput {
  return priorSummary ? { ...input, priorSummary } : input;
}

function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `${trimmed.slice(0, max - 1)}…`;
}
