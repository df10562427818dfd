import * as vscode from 'vscode';
import type { HunkVerdicts } from './hunk-verdicts';

const MAX_PREVIEW_CHARS = 80;

/** What an editor shows of a review: the lines marked as removed, and where the notes of new lines sit. */
export interface ReviewMarks {
  removedLines: number[];
  insertionLines: number[];
}

/**
 * Marks a proposed edit in the real file's editor, in the theme's diff colours: the lines it would
 * remove or replace get the removed-line background (and an overview-ruler mark), and where it
 * would put new lines a faint note shows the first of them. Rejected hunks are left unmarked.
 * The decoration types are created once and disposed with the extension.
 */
export class ReviewDecorations implements vscode.Disposable {
  private readonly removed = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('diffEditor.removedLineBackground'),
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.deletedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly inserted = vscode.window.createTextEditorDecorationType({
    after: {
      color: new vscode.ThemeColor('editorGhostText.foreground'),
      backgroundColor: new vscode.ThemeColor('diffEditor.insertedTextBackground'),
      margin: '0 0 0 2em',
    },
    overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  /** Editors we decorated and the lines marked (0-based), so clearing reaches exactly them. */
  private readonly decorated = new Map<vscode.TextEditor, ReviewMarks>();

  /** The lines marked in `editor` (tests; undefined when it has no marks). */
  marks(editor: vscode.TextEditor): ReviewMarks | undefined {
    return this.decorated.get(editor);
  }

  /** Decorates `editor` for `verdicts` (its document is the real file), or clears it when undefined. */
  apply(editor: vscode.TextEditor, verdicts: HunkVerdicts | undefined): void {
    if (!verdicts) {
      if (this.decorated.delete(editor)) {
        editor.setDecorations(this.removed, []);
        editor.setDecorations(this.inserted, []);
      }
      return;
    }
    const lineCount = editor.document.lineCount;
    const removed: vscode.Range[] = [];
    const inserted: vscode.DecorationOptions[] = [];
    for (const hunk of verdicts.hunks) {
      if (verdicts.verdict(hunk.index) === 'rejected') continue;
      if (hunk.removed.length > 0) {
        const first = Math.min(hunk.beforeStart, lineCount - 1);
        const last = Math.min(hunk.beforeStart + hunk.removed.length - 1, lineCount - 1);
        removed.push(new vscode.Range(first, 0, last, 0));
      }
      if (hunk.added.length > 0) {
        // The note sits at the end of the hunk's last removed line, or the line before an insertion.
        const after = hunk.removed.length > 0 ? hunk.beforeStart + hunk.removed.length - 1 : hunk.beforeStart - 1;
        const line = Math.max(0, Math.min(after, lineCount - 1));
        const end = editor.document.lineAt(line).range.end;
        inserted.push({ range: new vscode.Range(end, end), renderOptions: { after: { contentText: insertedNote(hunk.added) } } });
      }
    }
    editor.setDecorations(this.removed, removed);
    editor.setDecorations(this.inserted, inserted);
    this.decorated.set(editor, {
      removedLines: removed.flatMap((r) => Array.from({ length: r.end.line - r.start.line + 1 }, (_, i) => r.start.line + i)),
      insertionLines: inserted.map((d) => d.range.start.line),
    });
  }

  /** Forgets editors that are no longer visible (their decorations went with them). */
  retain(visible: readonly vscode.TextEditor[]): void {
    for (const editor of [...this.decorated.keys()]) if (!visible.includes(editor)) this.decorated.delete(editor);
  }

  dispose(): void {
    this.removed.dispose();
    this.inserted.dispose();
    this.decorated.clear();
  }
}

/** "+ const x = 1;  (+2 more lines)" */
function insertedNote(lines: readonly string[]): string {
  const first = (lines.find((l) => l.trim() !== '') ?? lines[0] ?? '').trim().replace(/\s+/g, ' ');
  const shown = first.length > MAX_PREVIEW_CHARS ? `${first.slice(0, MAX_PREVIEW_CHARS - 1)}…` : first;
  const more = lines.length > 1 ? `  (+${lines.length - 1} more line${lines.length === 2 ? '' : 's'})` : '';
  return `+ ${shown}${more}`;
}
