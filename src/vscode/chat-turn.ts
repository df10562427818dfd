// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';
import type { Agent } from '../core/agent/agent';
import type { TurnResult } from '../core/agent/turn-result';
import type { UICallback } from '../core/ui';
import type { ChatEntryOf, ImageUpload } from '../shared/protocol';
import { imageChips, type ChatInput } from './chat-input';
import type { ChatNotices } from './chat-notices';
import type { ChatRunState } from './chat-run-state';
import type { ChatSetup, WaitingQuestion } from './chat-setup';
import type { SentTurn, TurnOutcomes } from './failed-turn';
import type { RetryLine } from './retry-line';
import type { Transcript } from './transcript';

/** What one turn of the chat works with: the chat controller's parts. */
export interface TurnHost {
  entries: Transcript;
  run: ChatRunState;
  input: ChatInput;
  setup: ChatSetup;
  retryLine: RetryLine;
  outcomes: TurnOutcomes;
  notices: ChatNotices;
  /** The agent, built now if needed; undefined when it cannot be (the setup card says why, after `question`). */
  readyAgent(question: WaitingQuestion): Promise<Agent | undefined>;
  /** What the agent reports to, dropping what arrives once `generation` is over. */
  ui(generation: number): UICallback;
  /** The full save at the end of a turn: a failure is told, never thrown (the conversation is in memory). */
  save(): Promise<void>;
  syncFromAgent(): void;
}

/**
 * One turn of the chat: the user's message shows, the agent is built (or the setup card says what
 * is missing and the question waits), the @ mentions and images join it, queued follow-ups go in,
 * and afterwards the answer or the error card, then the save. `waited`: a question sent before the
 * setup was done, now run. New Chat meanwhile (another generation) drops what the turn still reports.
 */
export async function runChatTurn(host: TurnHost, text: string, images: readonly ImageUpload[], waited?: WaitingQuestion): Promise<TurnResult | undefined> {
  const { entries, run, input, setup, retryLine } = host;
  const entry: ChatEntryOf<'user'> = waited?.entry ?? { kind: 'user', id: entries.newId(), text, ...(images.length > 0 ? { images: imageChips(images) } : {}) };
  if (!waited) entries.upsert(entry);
  setup.asked();
  const controller = new AbortController();
  const generation = run.generation;
  const live = () => generation === run.generation;
  const followUps = input.followUps;
  run.set(controller);
  try {
    const agent = await host.readyAgent({ entry, images });
    const prepared = agent && live() ? await input.forTurn(agent, entry, images, live) : undefined;
    if (!agent || !prepared || !live()) {
      if (live()) followUps.drop();
      return undefined;
    }
    const sent: SentTurn = { agent, before: [...agent.messages], text, images };
    const turn = agent.runTurn(text, host.ui(generation), controller.signal, prepared);
    followUps.flush(agent);
    const result = await turn;
    run.windDown(controller);
    if (live()) {
      retryLine.clear(); // the answer or the error card takes its place
      host.outcomes.report(result, sent);
      await host.save();
    }
    return result;
  } catch (err) {
    if (live()) host.notices.error(l10n.t('OpenDev hit an internal error: {0}', (err as Error).message));
    return undefined;
  } finally {
    if (run.running === controller) {
      retryLine.clear();
      followUps.settle();
      host.syncFromAgent();
      run.set(undefined);
    }
  }
}
