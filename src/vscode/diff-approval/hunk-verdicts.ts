import type { ChangeHunk } from '../../core/change-hunk';
import type { ApprovalDecision, ProposedEdit } from '../../core/ui';

export type Verdict = 'accepted' | 'rejected';

/**
 * The user's hunk-by-hunk answer to one proposed edit as it is being given: each hunk accepted,
 * rejected or not yet decided. Once every hunk is decided it becomes the approval decision
 * (every hunk = allow, none = deny, otherwise `partial`). Pure: no editor state here.
 */
export class HunkVerdicts {
  readonly hunks: readonly ChangeHunk[];
  private readonly verdicts = new Map<number, Verdict>();

  constructor(readonly proposed: ProposedEdit) {
    this.hunks = proposed.hunks;
  }

  verdict(index: number): Verdict | undefined {
    return this.verdicts.get(index);
  }

  get decidedCount(): number {
    return this.verdicts.size;
  }

  /** Records one hunk's verdict; false for an index the proposal does not have. */
  set(index: number, verdict: Verdict | undefined): boolean {
    if (!Number.isInteger(index) || index < 0 || index >= this.hunks.length) return false;
    if (verdict) this.verdicts.set(index, verdict);
    else this.verdicts.delete(index);
    return true;
  }

  setAll(verdict: Verdict): void {
    for (const h of this.hunks) this.verdicts.set(h.index, verdict);
  }

  /** The decision once every hunk is decided; undefined while some are open. */
  decision(): ApprovalDecision | undefined {
    if (this.verdicts.size < this.hunks.length) return undefined;
    const accepted = this.hunks.filter((h) => this.verdicts.get(h.index) === 'accepted').map((h) => h.index);
    if (accepted.length === this.hunks.length) return { action: 'allow' };
    if (accepted.length === 0) return { action: 'deny' };
    return { action: 'partial', acceptedHunks: accepted };
  }
}
