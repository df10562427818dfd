import type { ThinkingLevel } from '../core/config/thinking-level';
import type { ChatEntry } from '../shared/protocol';
import type { BackgroundTaskPort, MentionPort } from './chat-input';
import type { ChatSessions } from './chat-sessions';
import type { EditReviewPort } from './diff-approval/edit-review-port';
import type { SlashCommandPort } from './slash-port';

/** What a chat is given besides its agent: each part is optional, and the chat does without it. */
export interface ChatControllerOptions {
  /** The shared slash-command registry; without it every message goes to the model. */
  slash?: SlashCommandPort;
  /** The `opendev.thinkingLevel` setting; undefined keeps the level the agent was built with. */
  thinkingLevel?: ThinkingLevel;
  /** The workspace folder, for commands that list project state (another one after moveTo). */
  workingDir?: string;
  /** A message is about to start a new conversation: the chat's folder may follow the active editor first (moveTo). */
  beforeStart?: () => void;
  /** Saves the conversation as a session of the project (and resumes one); without it nothing is saved. */
  sessions?: ChatSessions;
  /** `@` mentions: completion and expansion into context; without it `@` is plain text. */
  mentions?: MentionPort;
  /** The background tasks for the indicator; without it none are shown. */
  tasks?: BackgroundTaskPort;
  /** Edits shown in the diff editor for approval, and finished edits' diffs; without it only the cards show them. */
  editReview?: EditReviewPort;
  /**
   * What would keep an agent from being built now (no key…), read without building one: the empty
   * chat shows it as its setup card. Without it the card appears at the first message.
   */
  setupCheck?: () => Promise<ChatEntry | undefined>;
}
