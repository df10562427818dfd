import type { Message } from '../messages';
import { textWithImageNote } from '../images/image-texts';

export interface TranscriptLimits {
  /** Longest text kept of one user or assistant message. */
  maxMessageChars: number;
  /** Longest text kept of one tool result (its summary stands in for the rest). */
  maxToolChars: number;
  /** Longest transcript; beyond it the middle is left out, never the start or the end. */
  maxTotalChars: number;
}

export const DEFAULT_TRANSCRIPT_LIMITS: TranscriptLimits = { maxMessageChars: 1_500, maxToolChars: 400, maxTotalChars: 60_000 };

/**
 * The conversation as plain numbered lines, the input of the episodic summariser and the
 * reflector. Tool outputs are shortened (a model reading the whole history needs what happened,
 * not every line a tool printed); when the transcript is still too long, middle messages are
 * left out so the user's first request and the latest work always stay in.
 */
export function renderTranscript(messages: readonly Message[], limits: TranscriptLimits = DEFAULT_TRANSCRIPT_LIMITS): string {
  const lines = messages.filter((m) => m.role !== 'system').map((m, i) => `[${i + 1}] ${renderMessage(m, limits)}`);
  const total = lines.reduce((n, l) => n + l.length + 1, 0);
  if (total <= limits.maxTotalChars) return lines.join('\n');
  const head: string[] = [];
  const tail: string[] = [];
  let budget = limits.maxTotalChars;
  // Alternate from both ends so the start and the latest work are both kept.
  for (let i = 0, j = lines.length - 1; i <= j; ) {
    const fromHead = head.length <= tail.length;
    const line = fromHead ? lines[i]! : lines[j]!;
    if (line.length + 1 > budget) break;
    budget -= line.length + 1;
    if (fromHead) head.push(lines[i++]!);
    else tail.unshift(lines[j--]!);
  }
  const omitted = lines.length - head.length - tail.length;
  return [...head, `[… ${omitted} messages left out …]`, ...tail].join('\n');
}

function renderMessage(m: Message, limits: TranscriptLimits): string {
  switch (m.role) {
    case 'system':
      return `User: ${clip(m.content, limits.maxMessageChars)}`;
    case 'user':
      return `User: ${textWithImageNote(clip(m.content, limits.maxMessageChars), m.images)}`;
    case 'assistant': {
      const calls = m.toolCalls.map((c) => `${c.name}(${clip(c.arguments, 200)})`);
      const text = m.content ? clip(m.content, limits.maxMessageChars) : '';
      return `Assistant: ${[text, calls.length > 0 ? `→ calls ${calls.join(', ')}` : ''].filter(Boolean).join(' ')}`;
    }
    case 'tool': {
      const label = `Tool ${m.name}${m.isError ? ' (error)' : ''}`;
      if (m.content.length <= limits.maxToolChars) return `${label}: ${m.content}`;
      return `${label}: ${m.summary ? `${m.summary} — ` : ''}${clip(m.content, limits.maxToolChars)}`;
    }
  }
}

function clip(text: string, max: number): string {
  const flat = text.trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
