/**
 * `OPENDEV_UNDO_BUDGET_MS`: how long a step waits for the snapshot before its first write, in ms
 * (default DEFAULT_UNDO_SETTINGS.budgetMs); past it the step goes on without undo. A workspace on a
 * slow disk, or a test suite on a loaded machine, raises it. Undefined when unset or not a whole
 * number of milliseconds.
 */
export const UNDO_BUDGET_ENV = 'OPENDEV_UNDO_BUDGET_MS';

export function undoBudgetFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const text = env[UNDO_BUDGET_ENV]?.trim();
  if (!text || !/^\d+$/.test(text)) return undefined;
  return Number(text);
}
