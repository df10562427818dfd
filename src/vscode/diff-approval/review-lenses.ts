import * as vscode from 'vscode';
import type { ChangeHunk } from '../../core/tools/edit/change-hunks';
import type { HunkVerdicts } from './hunk-verdicts';
import { REVIEW_COMMANDS } from './review-commands';

/** Which document of a review the lenses are for: the real file (hunks at their original lines) or the proposal. */
export type ReviewSide = 'file' | 'proposal';

/**
 * The CodeLens row of a review: Accept All / Reject All (and the progress) at the top, and on each
 * hunk Accept / Reject, or its verdict with Undo once decided. The titles are short so the row fits
 * a narrow editor (a 1400 px window with the chat beside it): which change a lens decides is in its
 * tooltip, and every decision can be made in the chat card too.
 */
export function reviewLenses(cardId: string, verdicts: HunkVerdicts, side: ReviewSide, lineCount: number): vscode.CodeLens[] {
  const top = new vscode.Range(0, 0, 0, 0);
  const total = verdicts.hunks.length;
  const label = verdicts.decidedCount ? `OpenDev · ${verdicts.decidedCount} of ${total} decided` : `OpenDev · ${total} change${total === 1 ? '' : 's'}`;
  const lenses = [
    lens(top, label, ''),
    lens(top, 'Accept All', REVIEW_COMMANDS.acceptAll, [cardId], 'Apply every change of this edit'),
    lens(top, 'Reject All', REVIEW_COMMANDS.rejectAll, [cardId], 'Apply none of it: the file stays as it is'),
  ];
  if (side === 'file') lenses.push(lens(top, 'Show Diff', REVIEW_COMMANDS.showDiff, [cardId], 'Open the proposal beside this editor'));
  for (const hunk of verdicts.hunks) {
    const at = new vscode.Range(anchorLine(hunk, side, lineCount), 0, anchorLine(hunk, side, lineCount), 0);
    // Short titles: a hunk on the first line shares the row with Accept All / Reject All.
    const n = hunk.index + 1;
    const size = `change ${n} of ${total} (+${hunk.added.length} −${hunk.removed.length} lines)`;
    const verdict = verdicts.verdict(hunk.index);
    if (verdict) {
      lenses.push(
        lens(at, verdict === 'accepted' ? `✓ Accepted ${n}` : `✗ Rejected ${n}`, '', [], `You ${verdict} ${size}`),
        lens(at, 'Undo', REVIEW_COMMANDS.undoHunk, [cardId, hunk.index], `Decide ${size} again`),
      );
    } else {
      lenses.push(
        lens(at, `✓ Accept ${n}`, REVIEW_COMMANDS.acceptHunk, [cardId, hunk.index], `Accept: apply ${size}`),
        lens(at, `✗ Reject ${n}`, REVIEW_COMMANDS.rejectHunk, [cardId, hunk.index], `Reject: leave out ${size}`),
      );
    }
  }
  return lenses;
}

/** The line a hunk's lenses and marks sit on: where it starts on that side, inside the document. */
export function anchorLine(hunk: ChangeHunk, side: ReviewSide, lineCount: number): number {
  const start = side === 'file' ? hunk.beforeStart : hunk.afterStart;
  return Math.max(0, Math.min(start, lineCount - 1));
}

function lens(range: vscode.Range, title: string, command: string, args: unknown[] = [], tooltip?: string): vscode.CodeLens {
  // An empty command id makes a label that does nothing when clicked.
  return new vscode.CodeLens(range, { title, command, arguments: args, ...(tooltip ? { tooltip } : {}) });
}
