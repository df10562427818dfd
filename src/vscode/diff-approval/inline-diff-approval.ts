import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalDecision, FileChange } from '../../core/ui';
import type { AnswerOutcome, CompanionView, ProposedEditRequest } from '../pending-requests';
import { closeDiffTabs, isDiffOpen, openDiffQuietly } from './diff-tabs';
import type { EditReviewPort } from './edit-review-port';
import { HunkVerdicts, type Verdict } from './hunk-verdicts';
import { PROPOSAL_SCHEME, ProposalDocuments } from './proposal-documents';
import { RecentEdits } from './recent-edits';
import { REVIEW_COMMANDS, REVIEWED_FILES_KEY, REVIEWING_KEY } from './review-commands';
import { ReviewDecorations, type ReviewMarks } from './review-decorations';
import { reviewLenses } from './review-lenses';

/** One edit waiting for the user's verdict in the editor. */
interface OpenReview {
  cardId: string;
  verdicts: HunkVerdicts;
  /** The real file (it may not exist yet: write_file). */
  file: vscode.Uri;
  /** The diff's left side: the real file, or an empty virtual document for a new file. */
  original: vscode.Uri;
  /** The diff's right side: the proposed content. */
  proposal: vscode.Uri;
  title: string;
  answer(decision: ApprovalDecision): AnswerOutcome;
  /** Tells the chat card a hunk decided here. */
  hunkDecided(index: number, verdict: Verdict | undefined): void;
}

/** An edit under review, as tests and other extensions see it. */
export interface PendingReview {
  cardId: string;
  path: string;
  hunks: number;
  original: vscode.Uri;
  proposal: vscode.Uri;
  /** The marks in the file's own editor (0-based lines), when it is visible. */
  marks: ReviewMarks | undefined;
}

/**
 * Inline diff approval. An edit that asks for approval opens in VS Code's diff editor (the file
 * against a virtual document of the proposal) without taking the focus; the real file's editor
 * and the proposal get CodeLens to accept or reject each hunk or all of them, and the file's
 * editor marks the lines the edit touches. The editor and the chat card answer the same request:
 * whichever comes first settles it, and the diff and its marks close (never the user's editors).
 * Finished edits keep their before/after (bounded) so their diff can be shown afterwards.
 */
export class InlineDiffApproval implements EditReviewPort, vscode.CodeLensProvider, vscode.Disposable {
  private readonly reviews = new Map<string, OpenReview>();
  private readonly recent = new RecentEdits();
  /** Pending proposals are held; finished edits' snapshots are read from `recent` when shown (`edit-3:before`). */
  private readonly documents = new ProposalDocuments((tag) => {
    const [id, side] = tag.split(':');
    const edit = id ? this.recent.get(id) : undefined;
    return edit ? (side === 'before' ? edit.before : edit.after) : undefined;
  });
  private readonly decorations = new ReviewDecorations();
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private sequence = 0;

  constructor() {
    this.subscriptions.push(
      this.documents,
      this.decorations,
      this.lensesChanged,
      vscode.workspace.registerTextDocumentContentProvider(PROPOSAL_SCHEME, this.documents),
      vscode.languages.registerCodeLensProvider([{ scheme: 'file' }, { scheme: PROPOSAL_SCHEME }], this),
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        this.decorations.retain(editors);
        if (this.reviews.size > 0) this.changed(); // where the file shows decides where its lenses go
      }),
      vscode.commands.registerCommand(REVIEW_COMMANDS.acceptHunk, (id: unknown, index: unknown) => this.decide(id, index, 'accepted')),
      vscode.commands.registerCommand(REVIEW_COMMANDS.rejectHunk, (id: unknown, index: unknown) => this.decide(id, index, 'rejected')),
      vscode.commands.registerCommand(REVIEW_COMMANDS.undoHunk, (id: unknown, index: unknown) => this.decide(id, index, undefined)),
      vscode.commands.registerCommand(REVIEW_COMMANDS.acceptAll, (id: unknown) => this.decideAll(id, 'accepted')),
      vscode.commands.registerCommand(REVIEW_COMMANDS.rejectAll, (id: unknown) => this.decideAll(id, 'rejected')),
      vscode.commands.registerCommand(REVIEW_COMMANDS.showDiff, (id: unknown) => this.showDiff(typeof id === 'string' ? id : undefined)),
    );
    void this.updateContext();
  }

  // ───────────────────────────── the chat's side ─────────────────────────────

  approvalOpened(
    request: ProposedEditRequest,
    answer: (decision: ApprovalDecision) => AnswerOutcome,
    hunkDecided: (index: number, verdict: Verdict | undefined) => void = () => undefined,
  ): CompanionView {
    const { proposed } = request;
    const tag = `review-${++this.sequence}`;
    const file = vscode.Uri.file(proposed.path);
    const isNew = proposed.creates === true;
    const review: OpenReview = {
      cardId: request.id,
      verdicts: new HunkVerdicts(proposed),
      file,
      original: isNew ? this.documents.put(proposed.path, `${tag}-before`, '') : file,
      proposal: this.documents.put(proposed.path, tag, proposed.after),
      title: isNew ? vscode.l10n.t('{0}: new file ↔ proposed by OpenDev', basename(proposed.path)) : vscode.l10n.t('{0}: current ↔ proposed by OpenDev', basename(proposed.path)),
      answer,
      hunkDecided,
    };
    this.reviews.set(request.id, review);
    this.changed();
    // The card and the file's lenses still answer it if the diff editor cannot open.
    openDiffQuietly(review.original, review.proposal, review.title).catch(() => undefined);
    return {
      dispose: () => void this.close(request.id).catch(() => undefined),
      // Decided in the chat card: the lenses and marks show it (the card's Submit answers the whole).
      setVerdict: (index, verdict) => {
        if (this.reviews.get(request.id) === review && review.verdicts.set(index, verdict)) this.changed();
      },
    };
  }

  recordEdit(change: FileChange): string | undefined {
    return this.recent.add(change);
  }

  // ───────────────────────────── the editor's side ─────────────────────────────

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const side = document.uri.scheme === PROPOSAL_SCHEME ? 'proposal' : 'file';
    const review = side === 'proposal' ? this.byProposal(document.uri) : this.byFile(document.uri);
    if (!review) return [];
    // Shown only as the diff's left side, the file leaves the lenses to the proposal beside it (no double row).
    const shownIn = vscode.window.visibleTextEditors.filter((e) => e.document === document);
    if (side === 'file' && shownIn.length > 0 && shownIn.every(insideDiffEditor)) return [];
    return reviewLenses(review.cardId, review.verdicts, side, document.lineCount);
  }

  /** The edits waiting for a verdict in the editor. */
  pending(): PendingReview[] {
    return [...this.reviews.values()].map((r) => {
      const own = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === r.file.toString() && !insideDiffEditor(e));
      return { cardId: r.cardId, path: r.file.fsPath, hunks: r.verdicts.hunks.length, original: r.original, proposal: r.proposal, marks: own && this.decorations.marks(own) };
    });
  }

  /** One hunk's verdict (undefined: undecided again); once every hunk is decided, the request is answered. */
  decide(cardId: unknown, index: unknown, verdict: Verdict | undefined): void {
    const review = typeof cardId === 'string' ? this.reviews.get(cardId) : undefined;
    if (!review || typeof index !== 'number' || !review.verdicts.set(index, verdict)) {
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: this change is no longer waiting for approval.'));
      return;
    }
    this.changed();
    review.hunkDecided(index, verdict);
    const decision = review.verdicts.decision();
    if (decision) this.settle(review, decision);
  }

  /**
   * Accept All / Reject All: for the review given (a card id from a lens, or the editor's resource
   * from the editor title button), else the one in the active editor, else the newest.
   */
  decideAll(target: unknown, verdict: Verdict): void {
    const review =
      typeof target === 'string'
        ? this.reviews.get(target)
        : target instanceof vscode.Uri
          ? (target.scheme === PROPOSAL_SCHEME ? this.byProposal(target) : this.byFile(target)) ?? this.current()
          : this.current();
    if (!review) {
      void vscode.window.showInformationMessage(vscode.l10n.t('OpenDev: no edit is waiting for your approval.'));
      return;
    }
    review.verdicts.setAll(verdict);
    this.settle(review, review.verdicts.decision()!);
  }

  /**
   * Opens a diff beside the active editor, without the focus: a pending approval's proposal (by its
   * card id), a finished edit's before/after (by its id), or, with no id, the last edit's.
   */
  async showDiff(id: string | undefined): Promise<void> {
    const review = id ? this.reviews.get(id) : undefined;
    if (review) return openDiffQuietly(review.original, review.proposal, review.title);
    const edit = id ? this.recent.get(id) : this.recent.latest();
    if (!edit) {
      const text = id
        ? vscode.l10n.t('OpenDev: the diff of that edit is no longer kept (only the last {0} edits are).', this.recent.maxEdits)
        : vscode.l10n.t('OpenDev has not edited a file in this window yet.');
      void vscode.window.showInformationMessage(text);
      return;
    }
    const before = this.documents.uri(edit.path, `${edit.id}:before`);
    const after = this.documents.uri(edit.path, `${edit.id}:after`);
    await openDiffQuietly(before, after, vscode.l10n.t("{0}: before ↔ after OpenDev's edit", basename(edit.path)));
  }

  dispose(): void {
    const proposals = [...this.reviews.values()].map((r) => r.proposal);
    this.reviews.clear();
    for (const uri of proposals) void closeDiffTabs(uri).catch(() => undefined);
    for (const s of this.subscriptions.splice(0)) s.dispose();
  }

  private settle(review: OpenReview, decision: ApprovalDecision): void {
    const outcome = review.answer(decision);
    if (!outcome.ok) {
      void vscode.window.showWarningMessage(vscode.l10n.t('OpenDev: {0}', outcome.reason));
      void this.close(review.cardId).catch(() => undefined);
    }
  }

  /** The request was answered (here or in the chat) or withdrawn: the diff, the lenses and the marks go. */
  private async close(cardId: string): Promise<void> {
    const review = this.reviews.get(cardId);
    if (!review) return;
    this.reviews.delete(cardId);
    this.changed();
    await closeDiffTabs(review.proposal);
    this.documents.drop(review.proposal);
    if (review.original.scheme === PROPOSAL_SCHEME) this.documents.drop(review.original);
  }

  /** The review of the active editor (the file or its proposal), else the newest open one. */
  private current(): OpenReview | undefined {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const active = uri && (uri.scheme === PROPOSAL_SCHEME ? this.byProposal(uri) : this.byFile(uri));
    return active ?? [...this.reviews.values()].at(-1);
  }

  private byFile(uri: vscode.Uri): OpenReview | undefined {
    if (uri.scheme !== 'file') return undefined;
    return [...this.reviews.values()].reverse().find((r) => r.file.fsPath === uri.fsPath);
  }

  private byProposal(uri: vscode.Uri): OpenReview | undefined {
    const key = uri.toString();
    return [...this.reviews.values()].find((r) => r.proposal.toString() === key);
  }

  private changed(): void {
    this.lensesChanged.fire();
    this.decorate();
    void this.updateContext();
  }

  /** Marks the real file's own editors; the diff editor shows the change in its own colours already. */
  private decorate(): void {
    for (const editor of vscode.window.visibleTextEditors) {
      this.decorations.apply(editor, insideDiffEditor(editor) ? undefined : this.byFile(editor.document.uri)?.verdicts);
    }
  }

  private async updateContext(): Promise<void> {
    const files = [...new Set([...this.reviews.values()].map((r) => r.file.fsPath))];
    await vscode.commands.executeCommand('setContext', REVIEWING_KEY, files.length > 0);
    await vscode.commands.executeCommand('setContext', REVIEWED_FILES_KEY, files);
  }

  /** Whether the proposal of a pending review is showing in a diff editor (tests). */
  isShowing(cardId: string): boolean {
    const review = this.reviews.get(cardId);
    return review !== undefined && isDiffOpen(review.proposal);
  }
}

/**
 * Whether `editor` is one side of a diff editor. The API has no direct way to tell: the sides of a
 * diff editor have no view column of their own, and where they do, the group's active tab is a diff.
 */
function insideDiffEditor(editor: vscode.TextEditor): boolean {
  if (editor.viewColumn === undefined) return true;
  const tab = vscode.window.tabGroups.all.find((g) => g.viewColumn === editor.viewColumn)?.activeTab;
  if (!(tab?.input instanceof vscode.TabInputTextDiff)) return false;
  const uri = editor.document.uri.toString();
  return tab.input.original.toString() === uri || tab.input.modified.toString() === uri;
}
