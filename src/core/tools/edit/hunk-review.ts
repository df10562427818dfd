import { loadTemplateSections, renderTemplate } from '../../templates';
import { ToolError, type EditReview } from '../tool';
import { applyHunks, hunkReplacements, type ChangeHunk } from './change-hunks';
import type { TextReplacement } from './line-endings';

const TEMPLATE = 'safety/hunk-review.md';

export interface ReviewedEdit {
  /** The file's text with only the accepted hunks applied. */
  text: string;
  /** The same as replacements in the current text (so untouched lines keep their bytes). */
  replacements: TextReplacement[];
  total: number;
  rejected: number;
  /** For the model: what was applied and, precisely, every rejected hunk. */
  report: string;
}

/**
 * Applies the user's hunk-by-hunk verdict to an edit the tool has just planned again. The file
 * and the plan must be exactly what the user reviewed; otherwise the verdict no longer fits and
 * nothing may be written (a ToolError says so).
 */
export function applyReview(review: EditReview, current: string, planned: string, shown: string): ReviewedEdit {
  if (current !== review.before || planned !== review.after) {
    throw new ToolError('other', section('stale', { FILE: shown }));
  }
  const { hunks } = review;
  const accepted = new Set(review.acceptedHunks.filter((i) => i >= 0 && i < hunks.length));
  const rejected = hunks.filter((h) => !accepted.has(h.index));
  const report = [
    section('partial', {
      ACCEPTED_COUNT: String(accepted.size),
      TOTAL: String(hunks.length),
      ACCEPTED: accepted.size ? `hunk${accepted.size === 1 ? '' : 's'} ${[...accepted].sort((a, b) => a - b).map((i) => i + 1).join(', ')}` : 'none',
      FILE: shown,
    }),
    ...rejected.map((h) => describeRejected(h, hunks.length)),
    section('guidance', {}),
  ].join('\n\n');
  return {
    text: applyHunks(review.before, hunks, accepted),
    replacements: hunkReplacements(review.before, hunks, accepted),
    total: hunks.length,
    rejected: rejected.length,
    report,
  };
}

/** What the model is told when every hunk was rejected (the call is refused like a denial). */
export function allHunksRejectedText(tool: string, total: number): string {
  return section('all_rejected', { TOOL: tool, TOTAL: String(total) });
}

function describeRejected(h: ChangeHunk, total: number): string {
  const beforeLines = lineRange(h.beforeStart, h.removed.length);
  const afterLines = lineRange(h.afterStart, h.added.length);
  const where =
    h.removed.length === 0
      ? section('where_insert', { AFTER_LINES: afterLines, AFTER_LINE: String(h.beforeStart) })
      : h.added.length === 0
        ? section('where_delete', { BEFORE_LINES: beforeLines })
        : section('where_change', { BEFORE_LINES: beforeLines, AFTER_LINES: afterLines });
  const header = `@@ -${h.beforeStart + (h.removed.length ? 1 : 0)},${h.removed.length} +${h.afterStart + (h.added.length ? 1 : 0)},${h.added.length} @@`;
  const body = [header, ...h.removed.map((l) => `-${trimNewline(l)}`), ...h.added.map((l) => `+${trimNewline(l)}`)].join('\n');
  return section('rejected_hunk', { NUMBER: String(h.index + 1), TOTAL: String(total), WHERE: where, BODY: body });
}

/** "line 4" or "lines 4–7" (1-based). */
function lineRange(start: number, count: number): string {
  return count <= 1 ? `line ${start + 1}` : `lines ${start + 1}–${start + count}`;
}

function trimNewline(line: string): string {
  return line.endsWith('\n') ? line.slice(0, -1) : line;
}

function section(name: string, vars: Record<string, string>): string {
  const template = loadTemplateSections(TEMPLATE).get(name);
  if (template === undefined) throw new Error(`templates/${TEMPLATE} has no "${name}" section`);
  return renderTemplate(template, vars);
}
