import type { TurnInput } from '../core/agent/turn-input';
import type { MentionExpansion } from '../core/mentions/mention-expander';
import type { BackgroundTaskView, ImageChip, ImageUpload, MentionChip, MentionCompletion } from '../shared/protocol';

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
      onProblem(`The @ mentions could not be attached: ${(err as Error).message}`);
    }
  }
  const turn: TurnInput = {
    ...(expansion.context ? { context: expansion.context } : {}),
    ...(uploads.length > 0 ? { images: uploads.map((u) => u.image) } : {}),
  };
  return { mentions: expansion.mentions.map((m) => ({ target: m.target, kind: m.kind, ok: m.ok })), turn };
}
