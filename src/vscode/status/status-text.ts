import type { ProviderKind } from '../../core/config/provider-settings';
import type { AgentModeView, ContextView, CostView, SandboxView } from '../../shared/protocol';

/** What a front end (the chat, or an OpenDev terminal tab) has to show in the status bar. */
export interface FrontEndStatus {
  mode: AgentModeView;
  busy: boolean;
  /** The context meter's last reading (none before the first model call). */
  context?: ContextView;
  cost?: CostView;
  /** Whether its commands run in the OS sandbox (none before its agent is built). */
  sandbox?: SandboxView;
}

/** What the status bar item shows: the model in use, and the active front end's mode, context and cost. */
export interface ChatStatus extends FrontEndStatus {
  provider: ProviderKind;
  baseUrl?: string;
  model: string;
  /** The model's context window from the capability catalogue, shown before the first reading. */
  catalogWindow?: number;
  /** The OpenDev terminal tab the status is of (its name); undefined for the chat. */
  terminal?: string;
}

const PROVIDER_NAMES: Record<ProviderKind, string> = { openai: 'OpenAI', anthropic: 'Anthropic', 'openai-compatible': 'OpenAI-compatible server' };

/** Context pressure from which the item turns to the warning colour (the compactor masks aggressively). */
export const HIGH_PRESSURE = 0.9;

/**
 * "$(hubot) gpt-4.1 · plan · 42%" (a spinning icon while the agent works; no % before the first
 * reading), and "$(warning) unsandboxed" when the commands run without the sandbox.
 */
export function statusText(s: ChatStatus): string {
  const parts = [`${s.busy ? '$(loading~spin)' : '$(hubot)'} ${s.model}`, s.mode];
  if (s.context && s.context.contextWindow > 0) parts.push(`${percent(s.context.pressure)}%`);
  // A sandbox that cannot run is a warning; one the user turned off is their choice (the tooltip says it).
  if (s.sandbox?.state === 'unsandboxed' && !s.sandbox.off) parts.push('$(warning) unsandboxed');
  return parts.join(' · ');
}

/** The hover: which front end, provider, model, mode, context tokens of the window, and the front end's cost. */
export function statusTooltip(s: ChatStatus): string {
  const lines = [
    s.terminal ? `OpenDev in the terminal "${s.terminal}"${s.busy ? ' (working…)' : ''}: click to show it` : `OpenDev${s.busy ? ' (working…)' : ''}: click to open the chat`,
    `Provider: ${PROVIDER_NAMES[s.provider]}${s.baseUrl ? ` at ${s.baseUrl}` : ''}`,
    `Model: ${s.model}`,
    `Mode: ${s.mode === 'plan' ? 'plan (explores read-only and proposes a plan before changing anything)' : 'normal'}`,
  ];
  const c = s.context;
  if (c && c.contextWindow > 0) {
    const stage = c.lastStage ? `; last reduction: ${c.lastStage.replace(/_/g, ' ')}` : '';
    lines.push(`Context: ${n(c.promptTokens)} of ${n(c.contextWindow)} tokens (${percent(c.pressure)}%)${stage}`);
  } else if (s.catalogWindow) {
    lines.push(`Context: ${n(s.catalogWindow)}-token window, nothing used yet`);
  }
  const cost = s.cost;
  if (cost && cost.calls > 0) {
    const money = cost.usd === undefined ? 'price unknown' : `$${cost.usd.toFixed(cost.usd < 1 ? 4 : 2)}`;
    lines.push(`Cost: ${money} (${n(cost.inputTokens)} in, ${n(cost.outputTokens)} out, ${cost.calls} call${cost.calls === 1 ? '' : 's'})`);
  }
  // Whether commands run sandboxed, and if not why and the fix.
  if (s.sandbox) lines.push(s.sandbox.detail ?? (s.sandbox.state === 'sandboxed' ? 'Commands run in the sandbox' : `Commands: ${s.sandbox.state}`));
  return lines.join('\n');
}

function percent(pressure: number): number {
  return Math.round(pressure * 100);
}

function n(value: number): string {
  return value.toLocaleString('en-US');
}
