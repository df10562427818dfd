/**
 * A unified diff of two texts by lines (Myers' O(ND) algorithm on interned lines, so the
 * usual small edit of a large file costs about one pass over it). Past MAX_EDIT_DISTANCE
 * changed lines the differing middle is shown as one removed and one added block.
 */
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

function myers(a: string[], b: string[]): Op[] | undefined {
  const ids = new Map<string, number>();
  const intern = (s: string) => {
    let id = ids.get(s);
    if (id === undefined) ids.set(s, (id = ids.size));
    return id;
  };
  const A = a.map(intern);
  const B = b.map(intern);
  const n = A.length;
  const m = B.length;
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && A[x] === B[y]) {
        x++;
        y++;
      }
      next[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, d, offset, a, b);
    }
    v = next;
  }
  return undefined;
}

/** trace[d] holds the furthest x per diagonal before step d; walk back from the end to (0, 0). */
function backtrack(trace: Int32Array[], dEnd: number, offset: number, a: string[], b: string[]): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const prev = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && prev[offset + k - 1]! < prev[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = prev[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: a[--x]! });
      y--;
    }
    if (x === prevX) ops.push({ kind: '+', line: b[--y]! });
    else ops.push({ kind: '-', line: a[--x]! });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: ' ', line: a[--x]! });
    y--;
  }
  return ops.reverse();
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
