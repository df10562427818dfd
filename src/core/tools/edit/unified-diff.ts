/**
 * A unified diff of two texts by lines: the common head and tail are skipped, the middle is diffed
 * by jsdiff (Myers' O(ND)), so the usual small edit of a large file costs about one pass over it.
 * Past MAX_EDIT_DISTANCE changed lines the differing middle is shown as one removed and one added block.
 */
import { diffArrays } from 'diff';

const MAX_EDIT_DISTANCE = 2000;

export interface UnifiedDiff {
  /** The diff text (`--- a/…`, `+++ b/…`, hunks), empty when the texts are equal. */
  text: string;
  added: number;
  removed: number;
}

export type Op = { kind: ' ' | '-' | '+'; line: string };

export function unifiedDiff(before: string, after: string, path: string, context = 3): UnifiedDiff {
  if (before === after) return { text: '', added: 0, removed: 0 };
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLines(a, b);
  const added = ops.filter((o) => o.kind === '+').length;
  const removed = ops.filter((o) => o.kind === '-').length;
  const hunks = formatHunks(ops, context);
  return { text: `--- a/${path}\n+++ b/${path}\n${hunks}`, added, removed };
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The line-level edit script from `a` to `b` (any strings: callers may keep line terminators). */
export function diffLines(a: string[], b: string[]): Op[] {
  // The common head and tail need no search.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const middle = myers(midA, midB) ?? [...midA.map((line) => ({ kind: '-' as const, line })), ...midB.map((line) => ({ kind: '+' as const, line }))];
  return [
    ...a.slice(0, head).map((line) => ({ kind: ' ' as const, line })),
    ...middle,
    ...a.slice(a.length - tail).map((line) => ({ kind: ' ' as const, line })),
  ];
}

/** The middle's edit script by jsdiff (Myers' O(ND)); undefined past MAX_EDIT_DISTANCE changed lines. */
function myers(a: string[], b: string[]): Op[] | undefined {
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDIT_DISTANCE });
  return changes?.flatMap((change) => change.value.map((line) => ({ kind: change.added ? ('+' as const) : change.removed ? ('-' as const) : (' ' as const), line })));
}

function formatHunks(ops: Op[], context: number): string {
  const out: string[] = [];
  let i = 0;
  // Line numbers (1-based) before each op.
  const aLine: number[] = [];
  const bLine: number[] = [];
  let la = 1;
  let lb = 1;
  for (const op of ops) {
    aLine.push(la);
    bLine.push(lb);
    if (op.kind !== '+') la++;
    if (op.kind !== '-') lb++;
  }
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === ' ') i++;
    if (i >= ops.length) break;
    const start = Math.max(0, i - context);
    let end = i;
    // Extend while the next change is within 2×context unchanged lines.
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== ' ') end++;
      let gap = end;
      while (gap < ops.length && ops[gap]!.kind === ' ') gap++;
      if (gap < ops.length && gap - end <= 2 * context) end = gap;
      else {
        end = Math.min(ops.length, end + context);
        break;
      }
    }
    const slice = ops.slice(start, end);
    const aCount = slice.filter((o) => o.kind !== '+').length;
    const bCount = slice.filter((o) => o.kind !== '-').length;
    const aStart = aCount === 0 ? aLine[start]! - 1 : aLine[start]!;
    const bStart = bCount === 0 ? bLine[start]! - 1 : bLine[start]!;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const op of slice) out.push(`${op.kind}${op.line}`);
    i = end;
  }
  return out.join('\n');
}
