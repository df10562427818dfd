import type { Message } from '../../messages';
import { estimateTokens } from '../token-estimate';
import { repairInPlace } from '../validated-messages';
import type { FullCompactionReport } from './full-compaction';
import { maskObservations, pruneObservations, type StageOutcome } from './observation-stages';
import { maskOldImages } from './image-masking';

/**
 * Staged compaction (paper §2.3, ACC; issue 5 part 5), checked at the start of every iteration
 * through the executor's `CompactionHook`. Pressure = prompt tokens / context window, where prompt
 * tokens are the API-reported size of the last call plus a local estimate of the messages added
 * since (the estimate alone before the first call). Stages, cheapest first, each applied only while
 * the pressure is still at or above its threshold after the previous one:
 *   70% warn (once per crossing) → 80% mask old observations (keep 6 whole) → 85% prune beyond the
 *   recency budget → 90% aggressive masking (keep 3) → 99% full compaction (the LLM summary, at most
 *   once per crossing: `full_compaction`; `full_compaction_needed` when it cannot run or did not help).
 */
export type CompactionStage = 'warn' | 'mask' | 'prune' | 'aggressive_mask' | 'full_compaction' | 'full_compaction_needed';

export interface CompactionEvent {
  stage: CompactionStage;
  /** Pressure (0..1+) when the stage ran, before its own reduction. */
  pressure: number;
  tokensFreed: number;
  messagesAffected: number;
  /** full_compaction: where the whole history was archived. */
  archivePath?: string;
  /** full_compaction: why the compact model's summary was replaced by the deterministic one. */
  fallbackReason?: string;
}

export interface CompactionThresholds {
  warn: number;
  mask: number;
  prune: number;
  aggressive: number;
  full: number;
}

export const DEFAULT_THRESHOLDS: CompactionThresholds = { warn: 0.7, mask: 0.8, prune: 0.85, aggressive: 0.9, full: 0.99 };
/** The paper: keep the 6 most recent observations whole when masking, 3 when masking aggressively. */
export const MASK_KEEP_RECENT = 6;
export const AGGRESSIVE_KEEP_RECENT = 3;
/** Tokens of recent tool output protected from pruning: OpenCode's PRUNE_PROTECT, capped by the window. */
export const PRUNE_PROTECT_TOKENS = 40_000;
export const PRUNE_PROTECT_WINDOW_FRACTION = 0.2;

export interface StagedCompactorOptions {
  /** Every stage that ran (the lead forwards these to the UI: what, how many tokens freed). */
  onEvent?: (event: CompactionEvent) => void;
  /** The pressure after every check (after the stages ran), for the UI's context meter. */
  onPressure?: (info: { pressure: number; promptTokens: number; contextWindow: number }) => void;
  /** Repairs `repairHistory` had to make after the stages (should be none; logged when not). */
  onRepair?: (repairs: string[]) => void;
  /**
   * The 99% stage: the LLM compaction (`FullCompactor.stage`: archive, summary, artifact index),
   * which rewrites `history` in place. It runs at most once per crossing of the threshold; its
   * report becomes a `full_compaction` event. Without it (or when it returns no report) the stage
   * only reports `full_compaction_needed`.
   */
  fullCompaction?: (history: Message[], pressure: number, info: { contextWindow: number; promptTokens: number; signal?: AbortSignal }) => Promise<FullCompactionReport | void>;
  thresholds?: Partial<CompactionThresholds>;
  keepRecent?: number;
  aggressiveKeepRecent?: number;
  /** Recency budget of the prune stage in tokens; default min(40,000, 20% of the window). */
  pruneProtectTokens?: number;
}

export class StagedCompactor {
  private readonly thresholds: CompactionThresholds;
  private warned = false;
  /** The full compaction ran since the pressure last was under the full threshold. */
  private fullCompacted = false;
  /** The history array seen last time and its length when that call's prompt was sent. */
  private lastHistory: Message[] | undefined;
  private sentLength = 0;
  private lastPressure: number | undefined;

  constructor(private readonly options: StagedCompactorOptions = {}) {
    this.thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
  }

  /** The executor's `CompactionHook`: `compaction: compactor.hook`. */
  readonly hook = (history: Message[], lastPromptTokens: number, contextWindow: number | undefined, signal?: AbortSignal): Promise<void> =>
    this.run(history, lastPromptTokens, contextWindow, signal);

  /** The pressure computed at the last check (after the stages), for a UI gauge; undefined before. */
  get pressure(): number | undefined {
    return this.lastPressure;
  }

  /** Prompt tokens now: the reported size of the last call + an estimate of what was added since. */
  promptTokens(history: readonly Message[], lastPromptTokens: number): number {
    if (lastPromptTokens <= 0) return estimateTokens(history);
    // Shorter than when the reported call was sent: rewritten since (undo, compaction), so the report is stale.
    if (history === this.lastHistory && history.length < this.sentLength) return estimateTokens(history);
    const since = history === this.lastHistory && this.sentLength <= history.length ? history.slice(this.sentLength) : [];
    return lastPromptTokens + estimateTokens(since);
  }

  async run(history: Message[], lastPromptTokens: number, contextWindow: number | undefined, signal?: AbortSignal): Promise<void> {
    if (!contextWindow || contextWindow <= 0) return;
    const t = this.thresholds;
    let tokens = this.promptTokens(history, lastPromptTokens);
    let pressure = tokens / contextWindow;

    if (pressure >= t.warn) {
      if (!this.warned) this.emit({ stage: 'warn', pressure, tokensFreed: 0, messagesAffected: 0 });
      this.warned = true;
    } else this.warned = false;

    const stage = (name: CompactionStage, threshold: number, apply: () => StageOutcome) => {
      if (pressure < threshold) return;
      const outcome = apply();
      if (outcome.messagesAffected === 0) return;
      this.emit({ stage: name, pressure, ...outcome });
      tokens -= outcome.tokensFreed;
      pressure = tokens / contextWindow;
    };
    // Images of older messages go with the old observations: only the latest message keeps its images.
    stage('mask', t.mask, () => combined(maskObservations(history, this.options.keepRecent ?? MASK_KEEP_RECENT), maskOldImages(history)));
    const budget = this.options.pruneProtectTokens ?? Math.min(PRUNE_PROTECT_TOKENS, Math.floor(contextWindow * PRUNE_PROTECT_WINDOW_FRACTION));
    stage('prune', t.prune, () => pruneObservations(history, budget));
    stage('aggressive_mask', t.aggressive, () => maskObservations(history, this.options.aggressiveKeepRecent ?? AGGRESSIVE_KEEP_RECENT));

    if (pressure < t.full) this.fullCompacted = false;
    else if (this.options.fullCompaction && !this.fullCompacted) {
      this.fullCompacted = true;
      const report = await this.options.fullCompaction(history, pressure, { contextWindow, promptTokens: tokens, signal });
      if (report) {
        const event: CompactionEvent = { stage: 'full_compaction', pressure, tokensFreed: Math.max(0, report.tokensBefore - report.tokensAfter), messagesAffected: report.messagesSummarised };
        if (report.archivePath) event.archivePath = report.archivePath;
        if (report.fallbackReason) event.fallbackReason = report.fallbackReason;
        this.emit(event);
      } else this.emit({ stage: 'full_compaction_needed', pressure, tokensFreed: 0, messagesAffected: 0 });
      // The history was rewritten; without a fresh API number the estimate is all we have.
      pressure = estimateTokens(history) / contextWindow;
    } else this.emit({ stage: 'full_compaction_needed', pressure, tokensFreed: 0, messagesAffected: 0 });

    const repairs = repairInPlace(history);
    if (repairs.length > 0) this.options.onRepair?.(repairs);
    this.lastHistory = history;
    this.sentLength = history.length;
    this.lastPressure = pressure;
    this.options.onPressure?.({ pressure, promptTokens: Math.round(pressure * contextWindow), contextWindow });
  }

  private emit(event: CompactionEvent): void {
    this.options.onEvent?.(event);
  }
}

function combined(a: StageOutcome, b: StageOutcome): StageOutcome {
  return { tokensFreed: a.tokensFreed + b.tokensFreed, messagesAffected: a.messagesAffected + b.messagesAffected };
}
