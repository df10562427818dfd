import { undoBudgetFromEnv } from '../undo/undo-budget-env';
import { UndoManager, type UndoSettings } from '../undo/undo-manager';
import type { SessionSetup } from './session-setup';

/** Snapshots and /undo for the session: every call of a tool that can change files (not the todo tools); undefined when undo is off. */
export async function createSessionUndo(setup: SessionSetup): Promise<UndoManager | undefined> {
  const { options, registry, ui } = setup;
  if (options.undo === false) return undefined;
  return UndoManager.open({
    workspaceRoot: options.workspaceRoot,
    home: setup.home,
    sessionId: setup.sessionId,
    changesFiles: (name) => {
      const tool = registry.get(name);
      return tool !== undefined && !tool.readOnly && tool.category !== 'todo';
    },
    onNotice: (message, level) => ui.onNotice?.(message, level),
    // OPENDEV_UNDO_BUDGET_MS first, so that a caller's own settings win over it.
    settings: { ...envBudget(), ...options.undo },
    // git's warm-up snapshot waits until the first request has left; a step that comes first snapshots by itself.
    holdWarmUp: (start) => setup.afterFirstAnswer.run(start),
    ...(options.host?.logger ? { trail: options.host.logger } : {}),
  });
}

function envBudget(): Partial<UndoSettings> {
  const budgetMs = undoBudgetFromEnv(process.env);
  return budgetMs === undefined ? {} : { budgetMs };
}
