import { linesOf, type ChangeHunk } from '../../core/tools/edit/change-hunks';
import { MAX_HUNK_PREVIEWS, type HunkPreview } from '../../shared/protocol';

/** Unchanged lines shown around a hunk, so the user sees where it goes. */
const CONTEXT_LINES = 2;
/** A hunk longer than this shows its start; the diff editor shows the rest. */
const MAX_SHOWN_LINES = 200;
const MAX_LINE_CHARS = 500;

/**
 * The approval card's view of the hunks the user decides one by one: the very hunks of
 * `changeHunks(before, after)` (so "hunk 2" is the same hunk in the card, in the editor's CodeLens
 * and in what the tool applies), each with a little unchanged context from `before`. Undefined for
 * a single hunk (Accept All / Reject All decide it) and when there are too many to list in a card:
 * the edit is then accepted or rejected as a whole there.
 */
export function hunkPreviews(before: string, hunks: readonly ChangeHunk[]): HunkPreview[] | undefined {
  if (hunks.length < 2 || hunks.length > MAX_HUNK_PREVIEWS) return undefined;
  const lines = linesOf(before);
  return hunks.map((hunk, i) => {
    const previous = hunks[i - 1];
    const next = hunks[i + 1];
    const end = hunk.beforeStart + hunk.removed.length;
    // Context never reaches into a neighbouring hunk's lines.
    const from = Math.max(hunk.beforeStart - CONTEXT_LINES, previous ? previous.beforeStart + previous.removed.length : 0);
    const to = Math.min(end + CONTEXT_LINES, next ? next.beforeStart : lines.length);
    const shown = [
      ...lines.slice(from, hunk.beforeStart).map((l) => ` ${l}`),
      ...hunk.removed.map((l) => `-${l}`),
      ...hunk.added.map((l) => `+${l}`),
      ...lines.slice(end, to).map((l) => ` ${l}`),
    ].map((l) => clip(l.replace(/\r?\n$/, '')));
    const more = shown.length - MAX_SHOWN_LINES;
    const text = more > 0 ? [...shown.slice(0, MAX_SHOWN_LINES), `⋯ ${more} more line${more === 1 ? '' : 's'} (Open diff shows them)`] : shown;
    return { index: hunk.index, where: where(hunk), added: hunk.added.length, removed: hunk.removed.length, lines: text.join('\n') };
  });
}

/** Where a hunk sits in the file as it is now (1-based lines). */
function where(hunk: ChangeHunk): string {
  const first = hunk.beforeStart + 1;
  if (hunk.removed.length === 0) return hunk.beforeStart === 0 ? 'at the start' : `after line ${hunk.beforeStart}`;
  return hunk.removed.length === 1 ? `line ${first}` : `lines ${first}–${first + hunk.removed.length - 1}`;
}

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
}
