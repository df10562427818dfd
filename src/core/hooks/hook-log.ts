// One log line per hook event that ran commands: which hooks, what they decided, how long it took.
// The hooks' input and output are not logged (they carry tool arguments and file content).
import type { Logger } from '../logger';
import type { HookEvent, HookRunOutcome } from './types';

export function logHookRun(log: Logger, event: HookEvent | string, outcome: HookRunOutcome, ms: number, matchValue?: string | readonly string[]): void {
  const decision = outcome.stop ? 'stop' : outcome.blocked ? 'block' : (outcome.permissionDecision ?? (outcome.updatedInput ? 'rewrite' : 'continue'));
  const fields = {
    event,
    match: typeof matchValue === 'string' ? matchValue : matchValue?.[0],
    hooks: outcome.results.map((r) => r.command).filter((c) => c !== '').join(' ; '),
    exitCodes: outcome.results.map((r) => (r.timedOut ? 'timeout' : String(r.exitCode))).join(','),
    decision,
    ms,
    warnings: outcome.warnings.length || undefined,
  };
  if (outcome.warnings.length > 0) log.warn('hooks ran', fields);
  else log.info('hooks ran', fields);
}
