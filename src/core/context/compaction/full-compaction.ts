import type { CostSink } from '../../llm/model-call';
import { callModel } from '../../llm/model-call';
import type { RoleResolver } from '../../llm/role-resolver';
import type { AssistantMessage, Message } from '../../messages';
import type { ContextInfo, UICallback } from '../../ui';
import { estimateTextTokens, estimateTokens } from '../token-estimate';
import { repairInPlace } from '../validated-messages';
import { collectArtifacts, emptyArtifactIndex, mergeArtifacts, renderArtifactIndex, type ArtifactIndex } from './artifact-index';
import { splitForCompaction } from './compaction-split';
import { compactionSystemPrompt, compactionText } from './compaction-texts';
import { writeHistoryArchive } from './history-archive';
import { isReduced, maskObservations } from './observation-stages';
import type { BeforeCompaction, CompactionTrigger } from './pre-compact-hook';
import { DETAIL_LEVELS, summaryInput } from './summary-input';

/**
 * The full (LLM) compaction: the 99% stage of the staged compactor and `/compact`. In order:
 * PreCompact hooks → archive the whole history to the scratch folder → summarise the middle with
 * the compact model (`templates/system/compaction.md`; the hooks' and the user's instructions are
 * added) → replace the history in place with [task] + [summary + artifact index + archive path] +
 * [latest request] + recent tail. When the model call fails, a deterministic summary (one line per
 * message) takes its place, so the context is always brought down. Nothing is changed when the call
 * is aborted.
 */
export interface FullCompactionReport {
  trigger: CompactionTrigger;
  /** Local estimates of the history (the system prompt and tool schemas come on top). */
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  /** Messages replaced by the summary. */
  messagesSummarised: number;
  archivePath?: string;
  /** Why the archive could not be written (the compaction went on without it). */
  archiveError?: string;
  /** Why the compact model's summary was not used (the deterministic summary was). */
  fallbackReason?: string;
  /** The PreCompact hooks or the user added instructions for the summary. */
  extraInstructions: boolean;
  /** Tool outputs in the kept tail replaced by a reference because the result was still too large. */
  tailOutputsMasked: number;
  /** What `repairInPlace` had to fix afterwards: always empty unless there is a bug. */
  repairs: string[];
}

export type FullCompactionResult = { status: 'compacted'; report: FullCompactionReport } | { status: 'skipped'; reason: string };

export interface FullCompactionRequest {
  trigger: CompactionTrigger;
  /** The user's instructions for this summary (`/compact <instructions>`). */
  instructions?: string;
  /** The action model's window; sizes the kept tail. Default: the action model's capabilities. */
  contextWindow?: number;
  signal?: AbortSignal;
}

export interface FullCompactorOptions {
  roles: RoleResolver;
  /** Where archives go: the session's scratch folder. */
  scratchDir: string;
  workspaceRoot?: string;
  sessionId?: string;
  agentName?: string;
  /** The compaction call counts toward the session's cost. */
  cost?: CostSink;
  /** Retries and cost updates of the compaction call go here. */
  ui?: UICallback;
  beforeCompaction?: BeforeCompaction;
  /** Things the user should know that do not stop the compaction (hook failures, an overridden block). */
  onWarning?: (message: string) => void;
  /** The context meter after a manual compaction (the staged compactor reports the automatic ones). */
  onContext?: (info: ContextInfo) => void;
}

/** The kept tail may take this share of the window; more and it shrinks (down to 3 messages). */
export const TAIL_WINDOW_FRACTION = 0.25;
/** Above this share of the window after compacting, the kept tail's tool outputs are masked too. */
export const TARGET_WINDOW_FRACTION = 0.6;
/** The summariser's input stays within this share of the compact model's window, and this many tokens. */
const SUMMARY_INPUT_WINDOW_FRACTION = 0.5;
const MAX_SUMMARY_INPUT_TOKENS = 60_000;
/** ~800 words plus headings; more is cut off by the provider. */
const SUMMARY_MAX_OUTPUT_TOKENS = 2048;
/** The deterministic summary stays this small (tokens). */
const FALLBACK_SUMMARY_TOKENS = 1500;

export class FullCompactor {
  /** Artifacts of the messages earlier compactions removed (the history no longer has their calls). */
  private carried: ArtifactIndex = emptyArtifactIndex();

  constructor(private readonly options: FullCompactorOptions) {}

  /** For `StagedCompactor`'s `fullCompaction` seam: the auto trigger, once per crossing. */
  readonly stage = async (history: Message[], _pressure: number, info: { contextWindow: number; signal?: AbortSignal }): Promise<FullCompactionReport | undefined> => {
    const result = await this.run(history, { trigger: 'auto', contextWindow: info.contextWindow, signal: info.signal });
    return result.status === 'compacted' ? result.report : undefined;
  };

  async run(history: Message[], request: FullCompactionRequest): Promise<FullCompactionResult> {
    const window = request.contextWindow ?? this.options.roles.forRole('action')?.capabilities?.contextWindow;
    const split = splitForCompaction(history, window ? { tailTokenBudget: Math.floor(window * TAIL_WINDOW_FRACTION) } : {});
    const tokensBefore = estimateTokens(history);
    // With nothing to summarise, only the kept tail's tool outputs can still give way (when over the target).
    const overTarget = window !== undefined && tokensBefore > window * TARGET_WINDOW_FRACTION;
    const maskable = overTarget && split.tail.some((m) => m.role === 'tool' && !isReduced(m));
    if (split.middle.length === 0 && !maskable) return { status: 'skipped', reason: 'The conversation is too short to compact: everything in it is recent.' };

    const verdict = await this.askHooks(request);
    if (verdict.blocked !== undefined) {
      // Manual: the hook's word is final. Auto: the next call would not fit, so compaction runs anyway.
      if (request.trigger === 'manual') return { status: 'skipped', reason: `A PreCompact hook blocked the compaction: ${verdict.blocked}` };
      this.warn(`A PreCompact hook asked to block the compaction (${verdict.blocked}); the context is full, so it ran anyway.`);
    }
    const instructions = [request.instructions?.trim(), verdict.instructions?.trim()].filter(Boolean).join('\n');

    const archive = await this.archive(history, request.trigger);
    const summary = split.middle.length > 0 ? await this.summarise(split.middle, instructions, request.signal) : { text: '' };
    if (request.signal?.aborted) throw new Error('compaction aborted');

    // The index covers the whole session: what earlier compactions removed, this middle, and the tail.
    const carried = mergeArtifacts(this.carried, collectArtifacts(split.middle, emptyArtifactIndex(), this.options.workspaceRoot));
    const index = mergeArtifacts(carried, collectArtifacts(split.tail, emptyArtifactIndex(), this.options.workspaceRoot));
    const content = summaryMessage(split.middle.length, summary.text, renderArtifactIndex(index), archive);
    const messagesBefore = history.length;
    history.splice(0, history.length, ...split.head, { role: 'user', content, origin: { kind: 'compaction' } }, ...(split.lastRequest ? [split.lastRequest] : []), ...split.tail);

    let tailOutputsMasked = 0;
    if (window !== undefined && estimateTokens(history) > window * TARGET_WINDOW_FRACTION) {
      tailOutputsMasked = maskObservations(history, 0).messagesAffected;
    }
    const repairs = repairInPlace(history);
    this.carried = carried;
    const report: FullCompactionReport = {
      trigger: request.trigger,
      tokensBefore,
      tokensAfter: estimateTokens(history),
      messagesBefore,
      messagesAfter: history.length,
      messagesSummarised: split.middle.length,
      extraInstructions: instructions.length > 0,
      tailOutputsMasked,
      repairs,
    };
    if (archive.path) report.archivePath = archive.path;
    if (archive.error) report.archiveError = archive.error;
    if (summary.fallbackReason) report.fallbackReason = summary.fallbackReason;
    if (request.trigger === 'manual' && window) {
      const freed = Math.max(0, tokensBefore - report.tokensAfter);
      this.options.onContext?.({ pressure: report.tokensAfter / window, promptTokens: report.tokensAfter, contextWindow: window, stage: 'full_compaction', tokensFreed: freed, messagesAffected: report.messagesSummarised });
    }
    return { status: 'compacted', report };
  }

  private async askHooks(request: FullCompactionRequest): Promise<{ blocked?: string; instructions?: string }> {
    if (!this.options.beforeCompaction) return {};
    try {
      return await this.options.beforeCompaction(request.trigger, request.instructions ?? '');
    } catch (err) {
      this.warn(`PreCompact hooks failed: ${(err as Error).message}`);
      return {};
    }
  }

  private async archive(history: readonly Message[], trigger: CompactionTrigger): Promise<{ path?: string; error?: string }> {
    try {
      const info = { trigger, ...(this.options.sessionId ? { sessionId: this.options.sessionId } : {}), ...(this.options.agentName ? { agentName: this.options.agentName } : {}) };
      return { path: await writeHistoryArchive(this.options.scratchDir, history, info) };
    } catch (err) {
      const error = (err as Error).message;
      this.warn(`The conversation could not be archived before compacting: ${error}`);
      return { error };
    }
  }

  /** The compact model's summary of `middle`, or the deterministic one (with the reason) when it fails. */
  private async summarise(middle: readonly Message[], instructions: string, signal?: AbortSignal): Promise<{ text: string; fallbackReason?: string }> {
    const fallback = (reason: string) => ({ text: deterministicSummary(middle, reason), fallbackReason: reason });
    const model = this.options.roles.forRole('compact');
    const system = compactionSystemPrompt();
    if (!model) return fallback('no model is configured for compaction');
    if (!system) return fallback('templates/system/compaction.md is missing');
    const window = model.capabilities?.contextWindow ?? MAX_SUMMARY_INPUT_TOKENS * 2;
    const budget = Math.min(MAX_SUMMARY_INPUT_TOKENS, Math.floor(window * SUMMARY_INPUT_WINDOW_FRACTION)) - estimateTextTokens(system);
    const input = summaryInput(middle, Math.max(budget, FALLBACK_SUMMARY_TOKENS));
    const prior = input.priorSummary ? compactionText('prior_summary', { SUMMARY: input.priorSummary }) : undefined;
    const extra = instructions ? compactionText('extra_instructions', { INSTRUCTIONS: instructions }) : undefined;
    const ask =
      compactionText('summary_request', { CONVERSATION: input.conversation, PRIOR_SUMMARY: prior ?? '', INSTRUCTIONS: extra ?? '' }) ??
      [input.conversation, prior, extra].filter(Boolean).join('\n\n');
    const reply: AssistantMessage = { role: 'assistant', content: '', toolCalls: [] };
    const ui = this.options.ui;
    try {
      await callModel(
        reply,
        model,
        { messages: [{ role: 'system', content: system }, { role: 'user', content: ask }], tools: [], maxOutputTokens: SUMMARY_MAX_OUTPUT_TOKENS, purpose: 'compaction' },
        {
          ui: { onTextDelta() {}, onToolStart() {}, onToolEnd() {}, onRetry: (i) => ui?.onRetry?.(i), onCost: (c) => ui?.onCost?.(c) },
          usage: { promptTokens: 0, cachedTokens: 0, outputTokens: 0 },
          cost: this.options.cost,
          signal: signal ?? new AbortController().signal,
        },
        { streamText: false },
      );
    } catch (err) {
      if (signal?.aborted) throw err;
      return fallback(`the compaction call failed (${(err as Error).message})`);
    }
    const text = reply.content.trim();
    return text ? { text } : fallback('the compact model returned an empty summary');
  }

  private warn(message: string): void {
    try {
      this.options.onWarning?.(message);
    } catch {
      /* a broken sink must not stop the compaction */
    }
  }
}

/** Without the model: one terse line per message (the summariser's tersest input), within a small budget. */
export function deterministicSummary(middle: readonly Message[], reason: string): string {
  const input = summaryInput(middle, FALLBACK_SUMMARY_TOKENS, DETAIL_LEVELS.slice(-1));
  const lines = [input.priorSummary, input.conversation].filter(Boolean).join('\n\n');
  return compactionText('fallback_summary', { REASON: reason, LINES: lines }) ?? lines;
}

function summaryMessage(count: number, summary: string, artifactIndex: string, archive: { path?: string; error?: string }): string {
  const archiveNote = archive.path
    ? compactionText('archive_note', { PATH: archive.path }) ?? archive.path
    : compactionText('archive_unavailable', { REASON: archive.error ?? 'unknown error' }) ?? '';
  const vars = { COUNT: String(count), SUMMARY: summary, ARTIFACT_INDEX: artifactIndex, ARCHIVE: archiveNote };
  return compactionText('summary_message', vars) ?? [summary, artifactIndex, archiveNote].filter(Boolean).join('\n\n');
}
