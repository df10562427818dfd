export const APPROVAL_LEVELS = ['manual', 'semi-auto', 'auto'] as const;
/**
 * How much runs without asking. Manual: every tool that changes something asks. Semi-Auto: also
 * known-safe read-only commands run unasked. Auto: nothing asks (the danger gate still blocks).
 */
export type ApprovalLevel = (typeof APPROVAL_LEVELS)[number];
