import type { Agent } from '../core/agent/agent';
import type { TurnResult } from '../core/agent/turn-result';
import type { CommandContext } from '../core/commands/command-registry';
import type { ChatControllerOptions } from './chat-controller-options';
import type { ChatInput } from './chat-input';
import type { ChatNotices } from './chat-notices';
import type { ChatRunState } from './chat-run-state';
import type { Transcript } from './transcript';
import type { ChatEntry, ExtensionToWebview } from '../shared/protocol';
// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';

/** What a slash command typed in the chat works with: the chat controller's parts. */
export interface SlashHost {
  options: ChatControllerOptions;
  entries: Transcript;
  input: ChatInput;
  notices: ChatNotices;
  run: ChatRunState;
  agent(): Agent | undefined;
  /** The agent built now (undefined: the chat says why). */
  readyAgent(): Promise<Agent | undefined>;
  /** What the command's context carries of the session: its models, the saved session, a question card. */
  context(): Omit<CommandContext, 'agent' | 'front'>;
  /** /clear, /new: a fresh agent and session; the problem when none could be built. */
  renew(): Promise<ChatEntry | undefined>;
  /** The setup card says what is missing. */
  reportSetup(problem: ChatEntry): void;
  /** The conversation's live state (todos, cost) starts over. */
  resetLive(): void;
  syncFromAgent(): void;
  refreshSteps(): Promise<void>;
  snapshot(): ExtensionToWebview;
  runTurn(text: string): Promise<TurnResult | undefined>;
}

/**
 * A slash command typed in the chat: it runs through the registry (no model call) and its output
 * is a notice; one that needs no model runs before a key is set. A command may start a new
 * session, clear the screen, or hand the agent a prompt (run now, or queued behind a running turn).
 */
export async function runSlashCommand(host: SlashHost, command: string, name: string): Promise<TurnResult | undefined> {
  const slash = host.options.slash!;
  if (host.run.busy && !slash.runsWhileBusy(name)) {
    host.notices.notice(l10n.t('/{0} cannot run while OpenDev is working. Wait for it to finish, or press Stop.', name), 'warning', command);
    return undefined;
  }
  // /help, /models, /config… need no model: they run before a key is set (with the agent when there is one).
  const needsAgent = slash.needsAgent(command);
  const agent = needsAgent ? await host.readyAgent() : host.agent();
  if (!agent && needsAgent) return undefined;
  const generation = host.run.generation;
  let result;
  try {
    result = await slash.run(command, { ...(agent ? { agent } : {}), front: 'vscode', ...host.context() });
  } catch (err) {
    host.notices.error(l10n.t('{0} failed: {1}', command.split(/\s/)[0] ?? command, (err as Error).message));
    return undefined;
  }
  if (generation !== host.run.generation) return undefined;
  // A new conversation is a new session: a fresh agent (and id) of its own.
  const problem = result.newSession ? await host.renew() : undefined;
  if (generation !== host.run.generation) return undefined;
  if (result.clearScreen || result.newSession) {
    host.entries.clear();
    host.input.followUps.reset();
  }
  if (result.newSession) host.resetLive();
  if (problem) host.reportSetup(problem); // after the clear, so the setup card stays
  if (result.output.trim()) host.notices.notice(result.output, result.error ? 'warning' : 'info', command);
  host.syncFromAgent();
  await host.refreshSteps(); // /undo changes which steps are undone
  if (result.clearScreen || result.newSession) host.entries.emit(host.snapshot());
  const prompt = result.runPrompt?.trim();
  if (!prompt) return undefined;
  if (host.run.busy) {
    host.input.followUps.add(host.agent(), prompt);
    return undefined;
  }
  return host.runTurn(prompt);
}
