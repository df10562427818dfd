/**
 * The named reminders of `templates/reminders.md` (paper appendix F), by category, with the
 * variables each one is rendered with. The source of truth for which reminders must exist: a
 * test checks every entry is in the template and renders with no `${…}` left over.
 */
export interface ReminderEntry {
  name: string;
  vars: readonly string[];
}

export const REMINDER_CATALOG = {
  /** Thinking/action and plan/normal transitions. */
  phase_control: [
    { name: 'thinking_trace', vars: ['TRACE'] },
    { name: 'thinking_todos', vars: ['DONE', 'TOTAL', 'TODOS'] },
    { name: 'plan_mode', vars: [] },
    { name: 'plan_mode_exited', vars: [] },
  ],
  /** Transitions of a multi-step workflow: subagents returning, plan approval, resume, follow-ups. */
  task_lifecycle: [
    { name: 'subagent_complete', vars: ['AGENTS'] },
    { name: 'background_subagent_done', vars: ['AGENTS'] },
    { name: 'plan_approved_signal', vars: ['PLAN_PATH', 'TODO_COUNT', 'NEXT_TODO'] },
    { name: 'plan_file_reference', vars: ['PLAN_PATH'] },
    { name: 'injected_followup', vars: ['MESSAGE'] },
  ],
  /** Gates on premature completion. */
  todo_enforcement: [
    { name: 'todos_incomplete', vars: ['TODOS'] },
    { name: 'all_todos_complete', vars: [] },
  ],
  /** A generic nudge, six typed ones (see error-recovery.ts) and one for containers. */
  error_recovery: [
    { name: 'failed_tool_nudge', vars: ['CALL', 'ERROR'] },
    { name: 'error_permission', vars: ['CALL', 'ERROR'] },
    { name: 'error_not_found', vars: ['CALL', 'ERROR'] },
    { name: 'error_syntax', vars: ['CALL', 'ERROR'] },
    { name: 'error_rate_limit', vars: ['CALL', 'ERROR'] },
    { name: 'error_timeout', vars: ['CALL', 'ERROR'] },
    { name: 'error_edit_mismatch', vars: ['CALL', 'ERROR'] },
    { name: 'error_docker', vars: ['CALL', 'ERROR'] },
  ],
  /** Observable anti-patterns. */
  behaviour_correction: [
    { name: 'consecutive_reads', vars: ['COUNT'] },
    { name: 'tool_rejected', vars: ['CALLS'] },
    { name: 'empty_completion', vars: [] },
    { name: 'iteration_cap_summary', vars: [] },
    { name: 'doom_loop_warning', vars: ['TOOL', 'COUNT'] },
  ],
  /** Parse retries of the memory's reflector and curator (their JSON failed to parse or validate). */
  json_retry: [
    { name: 'reflector_json_retry', vars: ['ERROR'] },
    { name: 'curator_json_retry', vars: ['ERROR'] },
  ],
} as const satisfies Record<string, readonly ReminderEntry[]>;

export type ReminderCategory = keyof typeof REMINDER_CATALOG;

/**
 * Category sizes as the paper gives them (appendix F.1). They add up to 26, although the paper's
 * text speaks of 24 reminders; the per-category counts are what we follow.
 */
export const PAPER_CATEGORY_SIZES: Record<ReminderCategory, number> = {
  phase_control: 4,
  task_lifecycle: 5,
  todo_enforcement: 2,
  error_recovery: 8,
  behaviour_correction: 5,
  json_retry: 2,
};

/** Harness messages outside the paper's catalogue (doom-loop follow-ups, subagent limits). */
export const HARNESS_REMINDERS: readonly ReminderEntry[] = [
  { name: 'doom_loop_aborted', vars: ['TOOL'] },
  { name: 'doom_loop_skipped', vars: [] },
  { name: 'subagent_no_spawn', vars: [] },
  /** Hooks (issue 6): additionalContext for the model; a Stop / SubagentStop hook that keeps the agent going. */
  { name: 'hook_context', vars: ['EVENT', 'CONTEXT'] },
  { name: 'hook_stop_blocked', vars: ['EVENT', 'REASON'] },
];

/** Every reminder the code may ask for. */
export function allReminders(): ReminderEntry[] {
  return [...Object.values(REMINDER_CATALOG).flat(), ...HARNESS_REMINDERS];
}
