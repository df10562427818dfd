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
  const lenses = [
    lens(top, headline(total, verdicts.decidedCount), ''),
    lens(top, vscode.l10n.t('Accept All'), REVIEW_COMMANDS.acceptAll, [cardId], vscode.l10n.t('Apply every change of this edit')),
    lens(top, vscode.l10n.t('Reject All'), REVIEW_COMMANDS.rejectAll, [cardId], vscode.l10n.t('Apply none of it: the file stays as it is')),
  ];
  if (side === 'file') lenses.push(lens(top, vscode.l10n.t('Show Diff'), REVIEW_COMMANDS.showDiff, [cardId], vscode.l10n.t('Open the proposal beside this editor')));
  for (const hunk of verdicts.hunks) {
    const at = new vscode.Range(anchorLine(hunk, side, lineCount), 0, anchorLine(hunk, side, lineCount), 0);
    // Short titles: a hunk on the first line shares the row with Accept All / Reject All.
    const n = hunk.index + 1;
    const size = vscode.l10n.t('change {0} of {1} (+{2} −{3} lines)', n, total, hunk.added.length, hunk.removed.length);
    const verdict = verdicts.verdict(hunk.index);
    if (verdict) {
      lenses.push(
        lens(at, verdict === 'accepted' ? vscode.l10n.t('✓ Accepted {0}', n) : vscode.l10n.t('✗ Rejected {0}', n), '', [], verdict === 'accepted' ? vscode.l10n.t('You accepted {0}', size) : vscode.l10n.t('You rejected {0}', size)),
        lens(at, vscode.l10n.t('Undo'), REVIEW_COMMANDS.undoHunk, [cardId, hunk.index], vscode.l10n.t('Decide {0} again', size)),
      );
    } else {
      lenses.push(
        lens(at, vscode.l10n.t('✓ Accept {0}', n), REVIEW_COMMANDS.acceptHunk, [cardId, hunk.index], vscode.l10n.t('Accept: apply {0}', size)),
        lens(at, vscode.l10n.t('✗ Reject {0}', n), REVIEW_COMMANDS.rejectHunk, [cardId, hunk.index], vscode.l10n.t('Reject: leave out {0}', size)),
      );
    }
  }
  return lenses;
}

/** The top lens's label: how many changes, and how many are decided once any is. */
function headline(total: number, decided: number): string {
  const changes = total === 1 ? vscode.l10n.t('OpenDev · 1 change') : vscode.l10n.t('OpenDev · {0} changes', total);
  return decided ? vscode.l10n.t('OpenDev · {0} of {1} decided', decided, total) : changes;
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
