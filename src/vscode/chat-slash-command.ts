import type { Agent } from '../core/agent/agent';
import type { TurnResult } from '../core/agent/turn-result';
import type { CommandContext } from '../core/commands/command-registry';
import type { ChatControllerOptions } from './chat-controller-options';
import type { ChatInput } from './chat-input';
import type { ChatNotices } from './chat-notices';
import type { ChatRunState } from './chat-run-state';
import type { AgentSession } from '../core/session/agent-session';
import type { PendingRequests } from './pending-requests';
import type { ChatSetup } from './chat-setup';
import type { ChatLiveState } from './chat-live-state';
import type { ChatHistory } from './chat-history';
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
  session: AgentSession<ChatEntry>;
  requests: PendingRequests;
  setup: ChatSetup;
  live: ChatLiveState;
  history: ChatHistory;
  /** The agent built now (undefined: the chat says why). */
  readyAgent(): Promise<Agent | undefined>;
  syncFromAgent(): void;
  snapshot(): ExtensionToWebview;
  runTurn(text: string): Promise<TurnResult | undefined>;
}

/** What a command's context carries of the chat: the models, the folder, the saved session, a question card. */
function commandContext(host: SlashHost): Omit<CommandContext, 'agent' | 'front'> {
  const recorder = host.session.recorder;
  return {
    ...(host.session.models ? { models: host.session.models } : {}),
    ...(host.options.workingDir ? { workingDir: host.options.workingDir } : {}),
    // What /sessions and /clear need of the saved session.
    ...(recorder ? { sessions: recorder.store, workingDir: recorder.workingDir, ...(recorder.current ? { session: recorder.current } : {}) } : {}),
    // A question card in the chat, as for ask_user (/init asks before replacing OPENDEV.md).
    askUser: (questions, signal) => host.requests.questions(questions, signal),
  };
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
  const agent = needsAgent ? await host.readyAgent() : host.session.agent;
  if (!agent && needsAgent) return undefined;
  const generation = host.run.generation;
  let result;
  try {
    result = await slash.run(command, { ...(agent ? { agent } : {}), front: 'vscode', ...commandContext(host) });
  } catch (err) {
    host.notices.error(l10n.t('{0} failed: {1}', command.split(/\s/)[0] ?? command, (err as Error).message));
    return undefined;
  }
  if (generation !== host.run.generation) return undefined;
  // A new conversation is a new session: a fresh agent (and id) of its own.
  const renewed = result.newSession ? await host.session.renew() : undefined;
  if (generation !== host.run.generation) return undefined;
  if (result.clearScreen || result.newSession) {
    host.entries.clear();
    host.input.followUps.reset();
  }
  if (result.newSession) host.live.reset();
  if (renewed && 'problem' in renewed) host.setup.report(renewed.problem); // after the clear, so the setup card stays
  if (result.output.trim()) host.notices.notice(result.output, result.error ? 'warning' : 'info', command);
  host.syncFromAgent();
  await host.history.refreshSteps(); // /undo changes which steps are undone
  if (result.clearScreen || result.newSession) host.entries.emit(host.snapshot());
  const prompt = result.runPrompt?.trim();
  if (!prompt) return undefined;
  if (host.run.busy) {
    host.input.followUps.add(host.session.agent, prompt);
    return undefined;
  }
  return host.runTurn(prompt);
}
