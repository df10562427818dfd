import type { LoadedHooksConfig } from '../../hooks/config';
import { runPreCompact, type HookCallOptions } from '../../hooks/lifecycle';
import { HOOK_OUTPUT_CAP_CHARS } from '../../hooks/runner';
import type { HooksConfig } from '../../hooks/types';

export type CompactionTrigger = 'auto' | 'manual';

/** What the PreCompact hooks said: a block (with its reason), and instructions for the summary. */
export interface PreCompactVerdict {
  blocked?: string;
  instructions?: string;
}

export type BeforeCompaction = (trigger: CompactionTrigger, customInstructions: string) => Promise<PreCompactVerdict>;

/**
 * PreCompact hooks (Claude Code format) before every full compaction. Input:
 * `{hook_event_name: "PreCompact", trigger, custom_instructions}`, matched on the trigger. What a
 * hook adds for the summary: `hookSpecificOutput.additionalContext`, or its plain stdout on exit 0.
 * Exit 2 or `decision: "block"` blocks (the compactor decides what a block means for its trigger);
 * any other failure is a warning through `session.onWarning` and the compaction goes on.
 */
export function preCompactHook(config: LoadedHooksConfig | HooksConfig, session: HookCallOptions): BeforeCompaction {
  return async (trigger, customInstructions) => {
    const outcome = await runPreCompact(config, session, trigger, customInstructions);
    const plain = outcome.results
      .filter((r) => r.exitCode === 0 && !r.timedOut && !r.aborted)
      .map((r) => r.stdout.trim())
      .filter((text) => text && !text.startsWith('{'));
    const instructions = [outcome.additionalContext, ...plain].filter(Boolean).join('\n').slice(0, HOOK_OUTPUT_CAP_CHARS);
    const verdict: PreCompactVerdict = {};
    if (outcome.blocked) verdict.blocked = outcome.blockReason || 'a PreCompact hook blocked it';
    if (instructions) verdict.instructions = instructions;
    return verdict;
  };
}
