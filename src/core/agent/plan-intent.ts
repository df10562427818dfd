/**
 * Prompts that ask for a plan rather than for work ("plan the migration…", "make a plan for…").
 * Deliberately narrow: a false positive would stop the agent from doing what was asked.
 */
const PLANNING_INTENT = /^\s*(?:please\s+)?(?:plan\b|(?:make|create|draft|write|come up with|propose)\s+(?:a|an|the)\s+(?:detailed\s+|step[- ]by[- ]step\s+|implementation\s+)?plan\b)/i;

export function hasPlanningIntent(prompt: string): boolean {
  return PLANNING_INTENT.test(prompt);
}
