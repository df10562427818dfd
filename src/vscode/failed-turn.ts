// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';
import type { Agent } from '../core/agent/agent';
import type { TurnResult } from '../core/agent/turn-result';
import { ModelWithoutToolsError } from '../core/llm/provider-error';
import type { Message } from '../core/messages';
import type { ImageUpload } from '../shared/protocol';
import type { Transcript } from './transcript';

/** A turn as it was sent, and the conversation just before it: what Retry sends again. */
export interface SentTurn {
  agent: Agent;
  /** The agent's conversation before the turn began. */
  before: readonly Message[];
  text: string;
  images: readonly ImageUpload[];
}

/**
 * How a turn ended, told in the chat: a failed turn gets an error card (with the fix for a missing
 * key or an unreachable server) and Retry, which takes the conversation back to just before that
 * turn and sends it again, so the model never sees the prompt twice. Only the latest failure can be
 * retried, and only on the agent it failed on (a rebuilt agent or New Chat forgets it).
 */
export class TurnOutcomes {
  private failed: { id: string; turn: SentTurn } | undefined;

  constructor(
    private readonly transcript: Transcript,
    private readonly notice: (text: string, level?: 'warning') => void,
  ) {}

  report(result: TurnResult, turn: SentTurn | undefined): void {
    if (result.status === 'failed') {
      const action = result.error.kind === 'auth' ? 'setApiKey' : result.error.kind === 'unreachable' ? 'openSettings' : undefined;
      const id = this.transcript.newId();
      // A model that calls no tools was refused before anything was sent: sending it again would be refused again.
      const refused = result.error instanceof ModelWithoutToolsError;
      this.failed = turn && !refused ? { id, turn } : undefined;
      const text = refused ? l10n.t('{0} cannot call tools, so OpenDev cannot read or edit files or run commands with it. Choose a model that supports tool calling with "OpenDev: Select Model".', (result.error as ModelWithoutToolsError).model) : result.error.message;
      this.transcript.upsert({ kind: 'error', id, text, ...(action ? { action } : {}), ...(turn && !refused ? { retry: true } : {}) });
    } else if (result.status === 'stopped') {
      this.notice(l10n.t('Stopped.'));
    } else if (result.status === 'iteration_limit') {
      this.notice(l10n.t('OpenDev reached its step limit for this message. Send "continue" to go on.'));
    }
  }

  /**
   * Retry on the error card `id`: the turn to send again, its agent already taken back to before it;
   * undefined (the card loses its button) when that failure is no longer the one to retry.
   */
  take(id: string, busy: boolean, current: Agent | undefined): SentTurn | undefined {
    if (busy) {
      this.notice(l10n.t('OpenDev is working: wait for it to finish, or press Stop, then press Retry.'), 'warning');
      return undefined;
    }
    const failed = this.failed;
    const card = this.transcript.find(id);
    if (card?.kind === 'error' && card.retry) this.transcript.upsert({ ...card, retry: false });
    if (!failed || failed.id !== id || failed.turn.agent !== current || current.running) {
      this.notice(l10n.t('That message can no longer be retried here: send it again.'), 'warning');
      return undefined;
    }
    this.failed = undefined;
    current.restore(failed.turn.before, undefined, false);
    return failed.turn;
  }

  forget(): void {
    this.failed = undefined;
  }
}
