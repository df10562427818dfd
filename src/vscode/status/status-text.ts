// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';
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
  /** The folder it works in (a terminal tab's is fixed when it opens; the chat's is the chat folder). */
  workingDir?: string;
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
  /** The workspace folder the front end works in, named only in a multi-root workspace (one folder says nothing). */
  folder?: { name: string; path: string };
}

const PROVIDER_NAMES = (): Record<ProviderKind, string> => ({
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': l10n.t('OpenAI-compatible server'),
  'azure-openai': 'Azure OpenAI',
  bedrock: 'Amazon Bedrock',
  vertex: 'Google Vertex AI',
  gemini: 'Gemini',
  openrouter: 'OpenRouter',
  'vscode-lm': l10n.t("VS Code's language models"),
});

/** Context pressure from which the item turns to the warning colour (the compactor masks aggressively). */
export const HIGH_PRESSURE = 0.9;

/**
 * "$(hubot) gpt-4.1 · plan · 42%" (a spinning icon while the agent works; no % before the first
 * reading), the folder in a multi-root workspace ("· $(root-folder) api"), and "$(warning) unsandboxed"
 * when the commands run without the sandbox.
 */
export function statusText(s: ChatStatus): string {
  const parts = [`${s.busy ? '$(loading~spin)' : '$(hubot)'} ${s.model}`, s.mode];
  if (s.context && s.context.contextWindow > 0) parts.push(`${percent(s.context.pressure)}%`);
  if (s.folder) parts.push(`$(root-folder) ${s.folder.name}`);
  // A sandbox that cannot run is a warning; one the user turned off is their choice (the tooltip says it).
  if (s.sandbox?.state === 'unsandboxed' && !s.sandbox.off) parts.push(l10n.t('$(warning) unsandboxed'));
  return parts.join(' · ');
}

/** The hover: which front end, provider, model, mode, context tokens of the window, and the front end's cost. */
export function statusTooltip(s: ChatStatus): string {
  const lines = [
    s.terminal
      ? s.busy ? l10n.t('OpenDev in the terminal "{0}" (working…): click to show it', s.terminal) : l10n.t('OpenDev in the terminal "{0}": click to show it', s.terminal)
      : s.busy ? l10n.t('OpenDev (working…): click to open the chat') : l10n.t('OpenDev: click to open the chat'),
    ...(s.folder ? [l10n.t('Folder: {0} ({1})', s.folder.name, s.folder.path)] : []),
    s.baseUrl ? l10n.t('Provider: {0} at {1}', PROVIDER_NAMES()[s.provider], s.baseUrl) : l10n.t('Provider: {0}', PROVIDER_NAMES()[s.provider]),
    l10n.t('Model: {0}', s.model),
    s.mode === 'plan' ? l10n.t('Mode: plan (explores read-only and proposes a plan before changing anything)') : l10n.t('Mode: normal'),
  ];
  const c = s.context;
  if (c && c.contextWindow > 0) {
    const used = l10n.t('Context: {0} of {1} tokens ({2}%)', n(c.promptTokens), n(c.contextWindow), percent(c.pressure));
    lines.push(c.lastStage ? l10n.t('{0}; last reduction: {1}', used, c.lastStage.replace(/_/g, ' ')) : used);
  } else if (s.catalogWindow) {
    lines.push(l10n.t('Context: {0}-token window, nothing used yet', n(s.catalogWindow)));
  }
  const cost = s.cost;
  if (cost && cost.calls > 0) {
    const money = cost.usd === undefined ? l10n.t('price unknown') : `$${cost.usd.toFixed(cost.usd < 1 ? 4 : 2)}`;
    lines.push(cost.calls === 1 ? l10n.t('Cost: {0} ({1} in, {2} out, 1 call)', money, n(cost.inputTokens), n(cost.outputTokens)) : l10n.t('Cost: {0} ({1} in, {2} out, {3} calls)', money, n(cost.inputTokens), n(cost.outputTokens), cost.calls));
  }
  // Whether commands run sandboxed, and if not why and the fix.
  if (s.sandbox) lines.push(s.sandbox.detail ?? (s.sandbox.state === 'sandboxed' ? l10n.t('Commands run in the sandbox') : l10n.t('Commands: {0}', s.sandbox.state)));
  return lines.join('\n');
}

function percent(pressure: number): number {
  return Math.round(pressure * 100);
}

function n(value: number): string {
  return value.toLocaleString('en-US');
}
