import type { ChangeHunk } from '../../change-hunk';
import type { TextReplacement } from './line-endings';

export type { ChangeHunk };
import { diffLines } from './unified-diff';


/**
 * The hunks that turn `before` into `after`. Deterministic: the same two texts always give the
 * same hunks, so a front end and the tool that applies the verdict agree on what "hunk 2" is.
 */
export function changeHunks(before: string, after: string): ChangeHunk[] {
  if (before === after) return [];
  const ops = diffLines(linesOf(before), linesOf(after));
  const hunks: ChangeHunk[] = [];
  let a = 0;
  let b = 0;
  let open: ChangeHunk | undefined;
  for (const op of ops) {
    if (op.kind === ' ') {
      open = undefined;
      a++;
      b++;
      continue;
    }
    if (!open) {
      open = { index: hunks.length, beforeStart: a, afterStart: b, removed: [], added: [] };
      hunks.push(open);
    }
    if (op.kind === '-') {
      open.removed.push(op.line);
      a++;
    } else {
      open.added.push(op.line);
      b++;
    }
  }
  return hunks;
}

/**
 * The accepted hunks as replacements in `before` (character offsets), for writing back with the
 * file's own line endings; hunks not in `accepted` leave their lines as they were.
 */
export function hunkReplacements(before: string, hunks: readonly ChangeHunk[], accepted: ReadonlySet<number>): TextReplacement[] {
  const lineStarts = [0];
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const offset = (line: number) => (line < lineStarts.length ? lineStarts[line]! : before.length);
  return hunks
    .filter((h) => accepted.has(h.index))
    .map((h) => ({ start: offset(h.beforeStart), end: offset(h.beforeStart + h.removed.length), replacement: h.added.join('') }));
}

/** `before` with only the accepted hunks applied: every hunk gives `after`, none gives `before`. */
export function applyHunks(before: string, hunks: readonly ChangeHunk[], accepted: ReadonlySet<number>): string {
  let out = '';
  let at = 0;
  for (const r of hunkReplacements(before, hunks, accepted)) {
    out += before.slice(at, r.start) + r.replacement;
    at = r.end;
  }
  return out + before.slice(at);
}

/** The text's lines, each with its `\n`; the last one lacks it when the text does not end with one. */
export function linesOf(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  return lines.length === 1 && lines[0] === '' ? [] : lines;
}
