import { FullCompactor } from '../context/compaction/full-compaction';
import type { CompactionEvent } from '../context/compaction/staged-compactor';
import type { ModelRoles } from '../llm/model-roles';
import type { ContextInfo, UICallback } from '../ui';
import type { SessionServices } from './session-services';

/** The 99% stage and /compact of one agent: PreCompact hooks first, archives in the session's scratch folder. */
export function fullCompactor(services: SessionServices, roles: ModelRoles, agentName: string, ui?: UICallback): FullCompactor {
  return new FullCompactor({
    roles,
    scratchDir: services.scratchDir,
    workspaceRoot: services.workspaceRoot,
    sessionId: services.sessionId,
    agentName,
    cost: services.cost,
    beforeCompaction: services.preCompact,
    ...(ui ? { ui, onWarning: (m: string) => ui.onNotice?.(m, 'warning'), onContext: (info: ContextInfo) => ui.onContext?.(info) } : {}),
  });
}

/** Compaction events as notices; "full compaction needed" repeats every iteration, so it is said once per crossing. */
export function compactionNotices(ui: UICallback): (e: CompactionEvent) => void {
  let fullSaid = false;
  return (e) => {
    if (e.stage !== 'full_compaction_needed') {
      ui.onContext?.({ pressure: e.pressure, promptTokens: 0, contextWindow: 0, stage: e.stage, tokensFreed: e.tokensFreed, messagesAffected: e.messagesAffected });
    }
    if (e.stage === 'warn') fullSaid = false;
    if (e.stage === 'full_compaction_needed') {
      if (fullSaid) return;
      fullSaid = true;
    }
    ui.onNotice?.(describeCompaction(e), e.stage === 'warn' || (e.stage === 'full_compaction' && !e.fallbackReason) ? 'info' : 'warning');
  };
}

/** The notice for one compaction event (English, written here rather than in a template or src/wording). */
function describeCompaction(e: CompactionEvent): string {
  const pct = `${Math.round(e.pressure * 100)}%`;
  switch (e.stage) {
    case 'warn':
      return `Context ${pct} full.`;
    case 'full_compaction':
      return `Context ${pct} full: compacted the conversation (${e.messagesAffected} messages summarised${e.fallbackReason ? ` without the compact model, because ${e.fallbackReason}` : ''}), about ${e.tokensFreed.toLocaleString('en-US')} tokens freed.${e.archivePath ? ` The full history is archived at ${e.archivePath}.` : ''}`;
    case 'full_compaction_needed':
      return `Context ${pct} full and nothing more can be compacted; start a new chat if answers degrade.`;
    default:
      return `Context ${pct} full: ${e.stage.replace(/_/g, ' ')} freed about ${e.tokensFreed.toLocaleString('en-US')} tokens (${e.messagesAffected} tool outputs).`;
  }
}
