// The operation log's records as lines of the host's log: a checkpoint (a step's snapshot before its
// first change), a step with what it changed, an undo. Paths are counted, not listed, except in debug.
import type { Logger } from '../logger';
import type { LogLine } from './operation-log';

export function logUndoRecord(log: Logger | undefined, record: LogLine): void {
  if (!log) return;
  switch (record.type) {
    case 'start':
      log.debug('undo: checkpoint', { step: record.step, tool: record.tool, tree: record.before.slice(0, 12) });
      break;
    case 'step':
      log.info('undo: step recorded', { step: record.step, changed: record.changed.length, skipped: record.skipped.length || undefined, tools: record.tools.join(',') });
      if (log.enabled('debug')) log.debug('undo: step files', { step: record.step, files: record.changed.map((c) => `${c.change[0]}:${c.path}`).join(' ') });
      break;
    case 'end':
      log.debug('undo: step changed nothing', { step: record.step });
      break;
    case 'undo':
      log.info('undo: restored', { steps: record.steps.join(','), savedTree: record.savedTree?.slice(0, 12) });
      break;
    case 'operation':
      log.trace('undo: operation', { tool: record.tool });
      break;
  }
}
