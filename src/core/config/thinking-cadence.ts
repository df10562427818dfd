export const THINKING_CADENCES = ['when-needed', 'every-step'] as const;
/**
 * Which steps get the separate thinking call (at a level other than OFF). `every-step` is the
 * paper's loop: before every action call. `when-needed` (the settings' default) thinks where a plan
 * or a change of plan pays; see ThinkingSchedule.
 */
export type ThinkingCadence = (typeof THINKING_CADENCES)[number];

export const DEFAULT_THINKING_CADENCE: ThinkingCadence = 'when-needed';

/** What the step before showed, as far as the schedule cares. */
export interface StepOutcome {
  /** The model called tools (it acts on a task, not only answering in words). */
  usedTools: boolean;
  /** A tool failed, was refused, or a call was skipped (doom loop). */
  failed: boolean;
  /** The agent was sent on when it meant to finish (a nudge, open todos, a Stop hook), or the user followed up. */
  steered: boolean;
}

/**
 * One turn's thinking schedule. With `when-needed`, a step thinks when the step before it was the
 * turn's first tool round (the model has taken up a task and its first results are in: plan now),
 * or failed, or ended in the agent being sent on. A message answered in words and the plain steps
 * of a task that goes well make no thinking call; softer reminders (a run of reads, a finished
 * todo list) reach the action call by themselves.
 */
export class ThinkingSchedule {
  private actedBefore = false;
  private due = false;

  constructor(private readonly cadence: ThinkingCadence) {}

  /** Whether this step makes the thinking call. */
  thinkNow(): boolean {
    if (this.cadence === 'every-step') return true;
    const due = this.due;
    this.due = false;
    return due;
  }

  /** After a step that goes on (the turn did not end with it). */
  after(step: StepOutcome): void {
    const firstToolRound = step.usedTools && !this.actedBefore;
    if (step.usedTools) this.actedBefore = true;
    if (firstToolRound || step.failed || step.steered) this.due = true;
  }
}
