import type {
  ApprovalDecision,
  ApprovalRequest,
  AskUserAnswers,
  AskUserQuestion,
  ProposedEdit,
  PlanDecision,
  PlanForReview,
} from '../core/ui';
import type { AnswerMessage, ChatEntryOf, HunkVerdictView } from '../shared/protocol';
import { approvalHeadline } from '../wording/approval-headline';
import { hunkPreviews } from './diff-approval/hunk-previews';
import type { Transcript } from './transcript';

/** The label of the free-text choice every question offers (the core adds it; the view renders its text field). */
export const OTHER_LABEL = 'Other';

type RequestEntry = ChatEntryOf<'approval'> | ChatEntryOf<'question'> | ChatEntryOf<'plan'>;

interface Open {
  entry: RequestEntry;
  /** Settles the request with the user's answer and marks the card answered. */
  answer(message: AnswerMessage): AnswerOutcome;
  /** Withdraws the card (New Chat): the request settles as cancelled. */
  cancel(): void;
  /** An edit approval with hunks: one hunk decided (undefined: undecided again) before the whole is answered. */
  decideHunk?(index: number, verdict: HunkVerdictView | undefined): AnswerOutcome;
}

export type AnswerOutcome = { ok: true } | { ok: false; reason: string };

/** An edit approval as a second front end sees it: the card's id and the whole proposal. */
export interface ProposedEditRequest {
  id: string;
  toolName: string;
  title: string;
  proposed: ProposedEdit;
}

/**
 * A second place where an edit approval is shown and can be answered (VS Code's diff editor and
 * its CodeLens). Whichever answers first settles the card; what it returned is disposed then.
 */
export interface RequestCompanion {
  /**
   * `hunkDecided`: the companion tells the card each hunk decided there; the returned `setVerdict`
   * takes the hunks decided in the card, so both always show the same decisions.
   */
  approvalOpened(
    request: ProposedEditRequest,
    answer: (decision: ApprovalDecision) => AnswerOutcome,
    hunkDecided: (index: number, verdict: HunkVerdictView | undefined) => void,
  ): CompanionView | undefined;
}

export interface CompanionView {
  dispose(): void;
  setVerdict?(index: number, verdict: HunkVerdictView | undefined): void;
}

const CANCELLED_APPROVAL: ApprovalDecision = { action: 'deny', feedback: 'cancelled by the user' };
const CANCELLED_PLAN: PlanDecision = { action: 'modify', feedback: 'The user cancelled the review.' };

/**
 * The blocking requests of the running turn, each shown as a card in the transcript: approvals,
 * ask_user surveys and plan reviews. A card is answered from the view (the answer is checked
 * against the card it claims to answer) or withdrawn when its signal aborts (Stop, turn over);
 * either way the card's entry records the outcome, so the transcript tells what happened.
 */
export class PendingRequests {
  private readonly open = new Map<string, Open>();

  constructor(
    private readonly transcript: Transcript,
    private readonly companion?: RequestCompanion,
  ) {}

  get size(): number {
    return this.open.size;
  }

  approval(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    // The card carries the diff, not the whole proposed file (that stays here, for the companion).
    // The card's title says what will happen in words ("Edit math.ts?"); the raw call stays one click away on it.
    const { proposed, ...rest } = request;
    const shown = { ...rest, title: approvalHeadline(request) };
    const changes = proposed?.hunks;
    const hunks = changes?.length;
    // The card lists the hunks to decide one by one (when there are not too many).
    const previews = proposed && changes ? hunkPreviews(proposed.before, changes) : undefined;
    const card = hunks === undefined ? shown : previews ? { ...shown, hunks, hunkPreviews: previews } : { ...shown, hunks };
    const entry: ChatEntryOf<'approval'> = { kind: 'approval', id: this.transcript.newId(), request: card, state: 'pending' };
    const answered = this.ask(entry, signal, CANCELLED_APPROVAL, (message, settle) => {
      if (message.type !== 'answerApproval') return mismatch(message, entry);
      const decision = message.decision;
      if (decision.action === 'edit' && request.command === undefined) {
        return { ok: false, reason: 'this request has no command to edit' };
      }
      if (decision.action === 'partial' && (hunks === undefined || decision.acceptedHunks.some((i) => i >= hunks))) {
        return { ok: false, reason: hunks === undefined ? 'this request has no hunks to choose from' : `this edit has ${hunks} hunks` };
      }
      const clean: ApprovalDecision =
        decision.action === 'deny'
          ? decision.feedback ? { action: 'deny', feedback: decision.feedback } : { action: 'deny' }
          : decision.action === 'partial'
            ? { action: 'partial', acceptedHunks: [...new Set(decision.acceptedHunks)].sort((a, b) => a - b) }
            : decision;
      settle(clean, { ...entry, state: 'answered', decision: clean });
      return { ok: true };
    });
    const open = this.open.get(entry.id);
    if (!open || hunks === undefined) return answered;
    // The hunks decided so far live here, on the card's entry: the card and the editor both show them.
    const verdicts = new Map<number, HunkVerdictView>();
    let shownThere: CompanionView | undefined;
    const decide = (index: number, verdict: HunkVerdictView | undefined, fromEditor: boolean): AnswerOutcome => {
      if (!this.open.has(entry.id)) return { ok: false, reason: 'this edit is no longer waiting for approval' };
      if (!Number.isInteger(index) || index < 0 || index >= hunks) return { ok: false, reason: `this edit has ${hunks} hunks` };
      if (verdict) verdicts.set(index, verdict);
      else verdicts.delete(index);
      const list = [...verdicts].sort(([a], [b]) => a - b).map(([i, v]) => ({ index: i, verdict: v }));
      this.transcript.upsert({ ...entry, verdicts: list });
      if (!fromEditor) shownThere?.setVerdict?.(index, verdict);
      return { ok: true };
    };
    open.decideHunk = (index, verdict) => decide(index, verdict, false);
    // The same request in a second place (the diff editor), answerable there too; it closes once the card settles.
    if (proposed && this.companion) {
      shownThere = this.companion.approvalOpened(
        { id: entry.id, toolName: request.toolName, title: shown.title, proposed },
        (decision) => this.answer({ type: 'answerApproval', id: entry.id, decision }),
        (index, verdict) => void decide(index, verdict, true),
      );
      void answered.finally(() => shownThere?.dispose());
    }
    return answered;
  }

  questions(questions: readonly AskUserQuestion[], signal: AbortSignal): Promise<AskUserAnswers | undefined> {
    const shown = questions.map((q) => ({ ...q, options: q.options.map((o) => ({ ...o })) }));
    const entry: ChatEntryOf<'question'> = { kind: 'question', id: this.transcript.newId(), questions: shown, state: 'pending' };
    return this.ask<AskUserAnswers | undefined>(entry, signal, undefined, (message, settle) => {
      if (message.type !== 'answerQuestions') return mismatch(message, entry);
      if (message.answers === null) {
        settle(undefined, { ...entry, state: 'answered' });
        return { ok: true };
      }
      const checked = checkAnswers(shown, message.answers);
      if (!checked.ok) return checked;
      settle(checked.answers, { ...entry, state: 'answered', answers: checked.answers });
      return { ok: true };
    });
  }

  plan(plan: PlanForReview, signal: AbortSignal): Promise<PlanDecision> {
    const entry: ChatEntryOf<'plan'> = { kind: 'plan', id: this.transcript.newId(), path: plan.path, content: plan.content, state: 'pending' };
    return this.ask(entry, signal, CANCELLED_PLAN, (message, settle) => {
      if (message.type !== 'answerPlan') return mismatch(message, entry);
      settle(message.decision, { ...entry, state: 'answered', decision: message.decision });
      return { ok: true };
    });
  }

  /** An answer from the view; refused when no open card has that id or the answer does not fit it. */
  answer(message: AnswerMessage): AnswerOutcome {
    const open = this.open.get(message.id);
    if (!open) return { ok: false, reason: `no open request has the id ${message.id} (already answered or cancelled)` };
    return open.answer(message);
  }

  /** One hunk of an open edit approval decided in the card (undefined: undecided again). */
  decideHunk(id: string, index: number, verdict: HunkVerdictView | undefined): AnswerOutcome {
    const open = this.open.get(id);
    if (!open?.decideHunk) return { ok: false, reason: `no open edit approval with hunks has the id ${id}` };
    return open.decideHunk(index, verdict);
  }

  /** Withdraws every open card (New Chat, the extension shutting down). */
  cancelAll(): void {
    for (const open of [...this.open.values()]) open.cancel();
  }

  private ask<T>(
    entry: RequestEntry,
    signal: AbortSignal,
    cancelled: T,
    handle: (message: AnswerMessage, settle: (value: T, shown: RequestEntry) => void) => AnswerOutcome,
  ): Promise<T> {
    if (signal.aborted) {
      this.transcript.upsert({ ...entry, state: 'cancelled' });
      return Promise.resolve(cancelled);
    }
    this.transcript.upsert(entry);
    return new Promise<T>((resolve) => {
      const finish = (value: T, shown: RequestEntry) => {
        signal.removeEventListener('abort', onAbort);
        this.open.delete(entry.id);
        this.transcript.upsert(shown);
        resolve(value);
      };
      const onAbort = () => finish(cancelled, { ...entry, state: 'cancelled' });
      signal.addEventListener('abort', onAbort, { once: true });
      this.open.set(entry.id, {
        entry,
        answer: (message) => handle(message, finish),
        cancel: onAbort,
      });
    });
  }
}

function mismatch(message: AnswerMessage, entry: RequestEntry): AnswerOutcome {
  return { ok: false, reason: `${message.type} does not answer a ${entry.kind} card` };
}

/**
 * One answer per question, in order, choosing only offered labels (at most one unless the question
 * is multi-select); the typed text is kept only with "Other" and must then be non-empty.
 */
function checkAnswers(
  questions: readonly AskUserQuestion[],
  given: AskUserAnswers,
): { ok: true; answers: AskUserAnswers } | { ok: false; reason: string } {
  if (given.answers.length !== questions.length) {
    return { ok: false, reason: `expected ${questions.length} answers, got ${given.answers.length}` };
  }
  const answers: AskUserAnswers['answers'] = [];
  for (const [i, q] of questions.entries()) {
    const a = given.answers[i]!;
    const labels = new Set([...q.options.map((o) => o.label), OTHER_LABEL]);
    const selected = [...new Set(a.selected)];
    const unknown = selected.find((s) => !labels.has(s));
    if (unknown !== undefined) return { ok: false, reason: `"${unknown}" is not an option of question ${i + 1}` };
    if (!q.multiSelect && selected.length > 1) return { ok: false, reason: `question ${i + 1} takes one answer` };
    const other = a.other?.trim();
    if (selected.includes(OTHER_LABEL) && !other) return { ok: false, reason: `question ${i + 1}: "Other" needs a text` };
    answers.push(selected.includes(OTHER_LABEL) ? { header: q.header, selected, other } : { header: q.header, selected });
  }
  return { ok: true, answers: { answers } };
}
