import type { CostSnapshot, UICallback } from '../ui';
import type { CallPurpose } from './call-purpose';
import type { ProviderRequest, TokenUsage } from './provider';
import type { AssistantMessage } from '../messages';
import type { ResolvedRoleModel } from './role-resolver';

/** Adds up what the model calls of a session cost (CostTracker implements it). */
export interface CostSink {
  add(usage: TokenUsage, capabilities?: ResolvedRoleModel['capabilities']): void;
  snapshot(): CostSnapshot;
  /** Seeds the totals of a resumed session. */
  restore?(snapshot: CostSnapshot): void;
}

/** What every model call of a turn shares. */
export interface TurnServices {
  ui: UICallback;
  /** The turn's running total. */
  usage: TokenUsage;
  cost?: CostSink;
  signal: AbortSignal;
}

export interface ModelCallOptions {
  /** Stream text deltas to the UI (the action call does; thinking calls report their trace at the end). */
  streamText: boolean;
  onThinkingDelta?: (delta: string) => void;
}

/** A model call as its callers state it: every call says why it is made. */
export type ModelCallRequest = Omit<ProviderRequest, 'model' | 'purpose'> & { purpose: CallPurpose };

/**
 * One streamed model call, collected into `reply` (the caller's, so a partial answer survives a
 * throw). Usage goes to the turn's total and the cost sink; a provider retry discards what the
 * failed attempt streamed. Returns the prompt tokens the API reported for this call.
 */
export async function callModel(
  reply: AssistantMessage,
  model: ResolvedRoleModel,
  request: ModelCallRequest,
  { ui, usage, cost, signal }: TurnServices,
  options: ModelCallOptions,
): Promise<number> {
  let promptTokens = 0;
  for await (const event of model.provider.stream({ ...request, model: model.model }, signal)) {
    switch (event.type) {
      case 'text':
        reply.content += event.delta;
        if (options.streamText) ui.onTextDelta(event.delta);
        break;
      case 'thinking':
        options.onThinkingDelta?.(event.delta);
        break;
      case 'tool_call':
        reply.toolCalls.push(event.call);
        break;
      case 'usage':
        usage.promptTokens += event.usage.promptTokens;
        usage.cachedTokens += event.usage.cachedTokens;
        usage.outputTokens += event.usage.outputTokens;
        if (event.usage.reasoningTokens) usage.reasoningTokens = (usage.reasoningTokens ?? 0) + event.usage.reasoningTokens;
        promptTokens = event.usage.promptTokens;
        ui.onUsage?.(event.usage);
        if (cost) {
          cost.add(event.usage, model.capabilities);
          ui.onCost?.(cost.snapshot());
        }
        break;
      case 'provider_items':
        reply.providerItems = event.items;
        break;
      case 'retry':
        reply.content = '';
        reply.toolCalls = [];
        delete reply.providerItems;
        ui.onRetry?.({
          attempt: event.attempt,
          maxAttempts: event.maxAttempts,
          delayMs: event.delayMs,
          reason: event.reason,
          ...(event.retryNow ? { retryNow: event.retryNow } : {}),
        });
        break;
    }
  }
  return promptTokens;
}
