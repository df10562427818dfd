// Plain Node (unit-tested without VS Code): @vscode/l10n, configured with VS Code's bundle at activation.
import * as l10n from '@vscode/l10n';
import type { Agent } from '../core/agent/agent';
import type { TurnInput } from '../core/turn-input';
import { imageRoute } from '../core/images/vision-input';
import type { MentionExpansion } from '../core/mentions/mention-expander';
import type { BackgroundTaskView, ChatEntryOf, ImageChip, ImageUpload, MentionChip, MentionCompletion, SlashCompletion } from '../shared/protocol';
import { FollowUps } from './follow-ups';
import type { SlashCommandPort } from './slash-port';
import type { Transcript } from './transcript';

/** `@` mentions for the chat: completion while typing, expansion into context on send (the host's sources). */
export interface MentionPort {
  complete(query: string): Promise<MentionCompletion[]>;
  expand(text: string): Promise<MentionExpansion>;
}

/** The background tasks the agent started, for the indicator above the input. */
export interface BackgroundTaskPort {
  running(): BackgroundTaskView[];
  onDidChange(listener: () => void): { dispose(): void };
  /** Shows the task's terminal tab. */
  open(id: string): void;
}

/** What the user sent besides the text, as the transcript shows it and as the agent takes it. */
export interface PreparedInput {
  mentions: MentionChip[];
  turn: TurnInput;
}

/** The chips of the images on the user's entry. */
export function imageChips(uploads: readonly ImageUpload[]): ImageChip[] {
  return uploads.map((u) => ({ thumbnail: u.thumbnail, ...(u.image.name ? { name: u.image.name } : {}) }));
}

/**
 * Expands the text's mentions (a failing expansion sends the text alone: the user's message matters
 * more than its attachments) and pairs the context with the images.
 */
export async function prepareInput(text: string, uploads: readonly ImageUpload[], mentions: MentionPort | undefined, onProblem: (message: string) => void): Promise<PreparedInput> {
  let expansion: MentionExpansion = { mentions: [] };
  if (mentions) {
    try {
      expansion = await mentions.expand(text);
    } catch (err) {
      onProblem(l10n.t('The @ mentions could not be attached: {0}', (err as Error).message));
    }
  }
  const turn: TurnInput = {
    ...(expansion.context ? { context: expansion.context } : {}),
    ...(uploads.length > 0 ? { images: uploads.map((u) => u.image) } : {}),
  };
  return { mentions: expansion.mentions.map((m) => ({ target: m.target, kind: m.kind, ok: m.ok })), turn };
}

type Notice = (text: string, level?: 'info' | 'warning') => void;

/**
 * What the user types, on its way to the agent: slash commands told apart from prompts, messages
 * typed while the agent works queued as follow-ups, `@` mentions completed and expanded into
 * context, images checked against the model that would read them.
 */
export class ChatInput {
  readonly followUps: FollowUps;

  constructor(
    private readonly entries: Transcript,
    private readonly options: { slash?: SlashCommandPort; mentions?: MentionPort },
    private readonly notice: Notice,
  ) {
    this.followUps = new FollowUps(entries, (text) => notice(text, 'warning'));
  }

  /** A command for the slash registry, or the prompt (`//` escapes a slash). Images never go with a command. */
  parse(text: string, images: readonly ImageUpload[]): { command: string; name: string } | { prompt: string } {
    const parsed = this.options.slash?.parse(text) ?? { prompt: text };
    if ('command' in parsed && images.length > 0) this.notice(l10n.t('Images go with messages, not with slash commands: they were not sent.'), 'warning');
    return parsed;
  }

  /** A message typed while the agent works joins the running turn, its mentions expanded (images cannot join). */
  async followUp(agent: () => Agent | undefined, prompt: string, images: readonly ImageUpload[]): Promise<void> {
    if (images.length > 0) this.notice(l10n.t('Images cannot join a running task: send them again once OpenDev has finished (or been stopped).'), 'warning');
    const { turn, mentions } = await prepareInput(prompt, [], this.options.mentions, (problem) => this.notice(problem, 'warning'));
    this.followUps.add(agent(), turn.context ? `${prompt}\n\n${turn.context}` : prompt, { text: prompt, mentions });
  }

  /**
   * What goes with the user's message into the turn: mentions as context (their chips join the
   * entry) and images. Undefined when the message must not be sent: images for a model that
   * reads none (the chat says what to change), or the chat was reset meanwhile (`live`).
   */
  async forTurn(agent: Agent, entry: ChatEntryOf<'user'>, images: readonly ImageUpload[], live: () => boolean): Promise<TurnInput | undefined> {
    const route = images.length > 0 ? imageRoute(agent.roles) : undefined;
    if (route?.kind === 'unsupported') {
      this.entries.upsert({
        kind: 'error',
        id: this.entries.newId(),
        text: l10n.t('The message was not sent: {0}. Choose a model that reads images (OpenDev: Select Model), or set a vision model in opendev.roles (for example "vision": {1}), then send it again.', route.reason, '{ "model": "gpt-4.1" }'),
        action: 'openSettings',
      });
      return undefined;
    }
    const prepared = await prepareInput(entry.text, images, this.options.mentions, (problem) => this.notice(problem, 'warning'));
    if (!live()) return undefined;
    if (prepared.mentions.length > 0) this.entries.upsert({ ...entry, mentions: prepared.mentions });
    return prepared.turn;
  }

  /** Slash commands (or argument values) completing what the user typed. */
  completions(text: string): SlashCompletion[] {
    return this.options.slash?.complete(text) ?? [];
  }

  /** Offers the slash completions to the view. */
  sendCompletions(text: string): void {
    this.entries.emit({ type: 'completions', text, items: this.completions(text) });
  }

  /** `@` completions for what follows the `@` being typed; offered to the view. */
  async sendMentionCompletions(query: string): Promise<void> {
    const items = (await this.options.mentions?.complete(query).catch(() => [])) ?? [];
    this.entries.emit({ type: 'mentionCompletions', query, items });
  }
}
