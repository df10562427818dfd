// Our blocking questions as ACP permission requests. ACP v1 has one kind of question a client
// must answer, `session/request_permission`: a tool call with options. Approvals map onto it
// directly (allow once / always / reject); a plan review and each ask_user question become one
// too, their answers offered as options. What the protocol cannot carry (several picks of a
// multi-select question, typed "Other" text, hunk-by-hunk review) is answered with one pick.
import type { PermissionOption, RequestPermissionOutcome } from '@agentclientprotocol/sdk';
import type { ApprovalDecision, AskUserQuestion, PlanDecision } from '../core/ui';

export const APPROVAL_OPTIONS: PermissionOption[] = [
  { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

/** A cancelled request (the turn was cancelled, the client closed it) and a reject both deny. */
export function approvalDecision(outcome: RequestPermissionOutcome): ApprovalDecision {
  if (outcome.outcome === 'cancelled') return { action: 'deny' };
  if (outcome.optionId === 'allow') return { action: 'allow' };
  if (outcome.optionId === 'always') return { action: 'always' };
  return { action: 'deny' };
}

export const PLAN_OPTIONS: PermissionOption[] = [
  { optionId: 'approve_auto', name: 'Approve and let it run', kind: 'allow_always' },
  { optionId: 'approve', name: 'Approve, ask before each change', kind: 'allow_once' },
  { optionId: 'revise', name: 'Keep planning', kind: 'reject_once' },
];

/** What the model reads when the plan was not approved through the client (no feedback can be typed there). */
export const PLAN_NOT_APPROVED = 'The user did not approve the plan in their editor. Ask what to change, or revise it.';

export function planDecision(outcome: RequestPermissionOutcome): PlanDecision {
  if (outcome.outcome === 'selected' && outcome.optionId === 'approve_auto') return { action: 'approve_auto' };
  if (outcome.outcome === 'selected' && outcome.optionId === 'approve') return { action: 'approve' };
  return { action: 'modify', feedback: PLAN_NOT_APPROVED };
}

/** One option per answer of the question, by index (labels may repeat or hold any character). */
export function questionOptions(question: AskUserQuestion): PermissionOption[] {
  return question.options.map((option, i) => ({ optionId: `option-${i}`, name: option.label, kind: 'allow_once' }));
}

/** The chosen label; undefined when the client cancelled the question. */
export function chosenLabel(question: AskUserQuestion, outcome: RequestPermissionOutcome): string | undefined {
  if (outcome.outcome !== 'selected') return undefined;
  const index = Number(/^option-(\d+)$/.exec(outcome.optionId)?.[1]);
  return Number.isInteger(index) ? question.options[index]?.label : undefined;
}
