// One ACP session: an AgentSession (build, save, resume, dispose: the same lifecycle as the CLI
// and the chat) and the turn that runs in it. The ACP session id is the saved session's id, so a
// client's session/load finds it again under the project.
import type { ContentBlock, SessionModeState, StopReason } from '@agentclientprotocol/sdk';
import type { Agent } from '../core/agent/agent';
import type { CommandTerminalPort } from '../core/host';
import type { AgentSession } from '../core/session/agent-session';
import type { LoadedSession } from '../core/session/session-store';
import type { AgentMode } from '../core/ui';
import type { AcpChannel } from './acp-channel';
import { AcpTurnUI } from './acp-turn-ui';
import { replayUpdates } from './conversation-replay';
import { promptInput } from './prompt-content';

export const MODES: SessionModeState['availableModes'] = [
  { id: 'normal', name: 'Normal', description: 'Reads, edits and runs commands, asking as your approval level says.' },
  { id: 'plan', name: 'Plan', description: 'Read-only: explores and writes a plan for you to approve.' },
];

export function isMode(id: string): id is AgentMode {
  return MODES.some((m) => m.id === id);
}

/** A command's output goes to the tool call of whichever turn runs it. */
export class TurnTerminal implements CommandTerminalPort {
  ui: AcpTurnUI | undefined;
  showCommand(info: { command: string }) {
    return this.ui?.commandView(info.command) ?? { write() {}, end() {} };
  }
  showBackgroundTask() {
    return { write() {}, end() {} };
  }
}

export class AcpSession {
  private turn: AbortController | undefined;

  constructor(
    readonly id: string,
    private readonly session: AgentSession<never>,
    private readonly agent: Agent,
    private readonly channel: AcpChannel,
    private readonly workspaceRoot: string,
    private readonly terminal: TurnTerminal,
  ) {}

  get modes(): SessionModeState {
    return { currentModeId: this.session.mode, availableModes: MODES };
  }

  /** session/load: the saved conversation, as the client draws it. */
  replay(loaded: LoadedSession): Promise<void> {
    for (const update of replayUpdates(loaded.messages, this.workspaceRoot)) this.channel.update(update);
    return this.channel.flushed();
  }

  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.turn) throw new Error('a prompt is already running in this session');
    const { text, input, skipped } = promptInput(blocks);
    const controller = new AbortController();
    this.turn = controller;
    const ui = new AcpTurnUI(this.channel, this.workspaceRoot);
    this.terminal.ui = ui;
    try {
      if (skipped.length > 0) ui.onNotice(`Not sent to the model: ${skipped.join('; ')}.`, 'info');
      const result = await this.agent.runTurn(text, ui, controller.signal, input);
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
      this.terminal.ui = undefined;
    }
  }

  /** session/cancel: the turn stops (an open question is withdrawn first); its prompt answers `cancelled`. */
  cancel(): void {
    if (!this.turn) return;
    // The turn's first interrupt only withdraws an open question (as Esc does in the chat); a
    // cancel ends the turn, so the second one stops it.
    this.turn.abort();
    this.agent.interrupt();
  }

  setMode(mode: AgentMode): void {
    this.session.setMode(mode);
    this.channel.update({ sessionUpdate: 'current_mode_update', currentModeId: mode });
  }

  dispose(): Promise<void> {
    this.cancel();
    return this.session.dispose();
  }
}
