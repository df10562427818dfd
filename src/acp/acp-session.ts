// One ACP session: an AgentSession (build, rebuild for another model, save, resume, dispose: the
// same lifecycle as the CLI and the chat) and the turn that runs in it. The ACP session id is the
// saved session's id, so a client's session/load finds it again under the project.
import { RequestError, type ContentBlock, type SessionConfigOption, type SessionModeState, type StopReason } from '@agentclientprotocol/sdk';
import type { Agent } from '../core/agent/agent';
import type { CatalogModel } from '../core/llm/capabilities/catalog';
import type { AgentSession } from '../core/session/agent-session';
import type { LoadedSession } from '../core/session/session-store';
import type { AgentMode } from '../core/ui';
import type { AcpChannel } from './acp-channel';
import { AcpTurnUI } from './acp-turn-ui';
import type { ClientHost } from './client-host';
import { replayUpdates } from './conversation-replay';
import { MODEL_OPTION_ID, modelOption } from './model-option';
import { promptInput } from './prompt-content';

export const MODES: SessionModeState['availableModes'] = [
  { id: 'normal', name: 'Normal', description: 'Reads, edits and runs commands, asking as your approval level says.' },
  { id: 'plan', name: 'Plan', description: 'Read-only: explores and writes a plan for you to approve.' },
];

export function isMode(id: string): id is AgentMode {
  return MODES.some((m) => m.id === id);
}

/** The models a session may switch among, and the one chosen (read by its agent builder). */
export interface ModelChoice {
  readonly available: readonly CatalogModel[];
  /** The action model of the settings. */
  readonly configured: string;
  /** Chosen in the client (session/set_config_option); the builder uses it. */
  chosen?: string;
}

export class AcpSession {
  private turn: { controller: AbortController; agent: Agent } | undefined;

  constructor(
    readonly id: string,
    private readonly session: AgentSession<never>,
    private readonly channel: AcpChannel,
    private readonly workspaceRoot: string,
    private readonly host: ClientHost,
    private readonly models: ModelChoice,
  ) {}

  get modes(): SessionModeState {
    return { currentModeId: this.session.mode, availableModes: MODES };
  }

  get configOptions(): SessionConfigOption[] {
    return [modelOption(this.models.available, this.models.chosen ?? this.models.configured)];
  }

  /** session/load: the saved conversation, as the client draws it. */
  replay(loaded: LoadedSession): Promise<void> {
    for (const update of replayUpdates(loaded.messages, this.workspaceRoot)) this.channel.update(update);
    return this.channel.flushed();
  }

  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.turn) throw new Error('a prompt is already running in this session');
    const { text, input, skipped } = promptInput(blocks);
    // The agent in place, or one rebuilt for a model chosen since the last turn.
    const ready = await this.session.ready();
    if (!('agent' in ready)) throw RequestError.internalError(undefined, 'the session has ended');
    const controller = new AbortController();
    this.turn = { controller, agent: ready.agent };
    const ui = new AcpTurnUI(this.channel, this.workspaceRoot);
    this.host.ui = ui;
    try {
      if (skipped.length > 0) ui.onNotice(`Not sent to the model: ${skipped.join('; ')}.`, 'info');
      const result = await ready.agent.runTurn(text, ui, controller.signal, input);
      const answer = result.text.trim();
      if (answer && !ui.lastText.includes(answer)) ui.message(answer);
      if (result.status === 'failed') ui.message(`Error: ${result.error.message}`);
      if (result.status === 'completed' && result.taskStatus === 'failure') ui.onNotice('The agent reports that it could not complete the task.', 'warning');
      await this.session.save().catch((err: unknown) => ui.onNotice(`The session was not saved: ${(err as Error).message}`, 'warning'));
      await this.channel.flushed();
      if (controller.signal.aborted || result.status === 'stopped') return 'cancelled';
      return result.status === 'iteration_limit' ? 'max_turn_requests' : 'end_turn';
    } finally {
      this.turn = undefined;
      this.host.ui = undefined;
    }
  }

  /** session/cancel: the turn stops (an open question is withdrawn first); its prompt answers `cancelled`. */
  cancel(): void {
    if (!this.turn) return;
    // The turn's first interrupt only withdraws an open question (as Esc does in the chat); a
    // cancel ends the turn, so the second one stops it.
    this.turn.controller.abort();
    this.turn.agent.interrupt();
  }

  setMode(mode: AgentMode): void {
    this.session.setMode(mode);
    this.channel.update({ sessionUpdate: 'current_mode_update', currentModeId: mode });
  }

  /**
   * session/set_config_option: another model. The agent is rebuilt with it now (a turn running
   * finishes with the old one, and the next turn gets the new one), the conversation carried over.
   */
  async setConfigOption(configId: string, value: unknown): Promise<SessionConfigOption[]> {
    if (configId !== MODEL_OPTION_ID) throw RequestError.invalidParams({ configId }, `no option "${configId}" (model)`);
    const offered = (this.configOptions[0]?.type === 'select' ? this.configOptions[0].options : []).flatMap((o) => ('value' in o ? [o.value] : []));
    if (typeof value !== 'string' || !offered.includes(value)) throw RequestError.invalidParams({ value }, `"${String(value)}" is not one of the models offered`);
    const before = this.models.chosen;
    this.models.chosen = value;
    this.session.invalidate();
    if (!this.turn) {
      try {
        await this.session.ready();
      } catch (err) {
        this.models.chosen = before;
        throw RequestError.internalError(undefined, `the agent could not be rebuilt with ${value}: ${(err as Error).message}`);
      }
    }
    const options = this.configOptions;
    this.channel.update({ sessionUpdate: 'config_option_update', configOptions: options });
    return options;
  }

  dispose(): Promise<void> {
    this.cancel();
    return this.session.dispose();
  }
}
