import type { ChatEntry } from '../src/shared/protocol';

// Sizes for the windowed transcript (virtual-transcript.ts): where an offset falls, and how tall an
// entry that has not been shown yet probably is.

/** The first index whose offset is past `y` (binary search over increasing offsets). */
export function firstBelow(tops: Float64Array, y: number): number {
  let lo = 0;
  let hi = tops.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tops[mid]! <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A guess until the entry has been shown: lines of text at the view's width, or a card's usual size. */
export function estimateHeight(entry: ChatEntry, width: number): number {
  const chars = Math.max(20, Math.floor((width || 300) / 7.5));
  const lines = (text: string) => text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / chars)), 0);
  switch (entry.kind) {
    case 'user':
      return 16 + 20 * Math.min(lines(entry.text), 40);
    case 'assistant':
      return 20 * Math.min(lines(entry.text), 200);
    case 'tool':
      return 48;
    case 'notice':
      return 20 * Math.min(lines(entry.text), 30);
    case 'thinking':
      return 22;
    default:
      return 120;
  }
}
