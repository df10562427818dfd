import type { ThinkingLevel } from '../core/config/thinking-level';
import type { TurnResult } from '../core/agent/turn-result';
import type { AgentMode } from '../core/ui';
import type { AnswerMessage, ChatEntry, ContextView, ExtensionToWebview, FolderChoice } from '../shared/protocol';
import type { PendingReview } from './diff-approval/inline-diff-approval';
import type { McpViewApi } from './mcp/register-mcp-view';
import type { AnswerOutcome } from './pending-requests';
import type { ModelPickRow } from './setup/model-pick';
import type { StatusBarView } from './status/status-bar';
import type { AgentTerminalsApi } from './terminal/agent-terminals';
import type { TerminalViewApi } from './terminal/opendev-terminals';

/** The command that hands our integration tests the API; registered only when VS Code runs them (ExtensionMode.Test). */
export const TEST_API_COMMAND = 'opendev.test.api';

/** What our integration tests drive and inspect the extension through (activate() itself returns nothing). */
export interface OpenDevApi {
  send(text: string): Promise<TurnResult | undefined>;
  transcript(): readonly ChatEntry[];
  newChat(): void;
  /** The chat's mode (normal or plan), as the view shows it. */
  mode(): AgentMode;
  /** The thinking level the agent runs with (from `opendev.thinkingLevel` or `/thinking`). */
  thinkingLevel(): ThinkingLevel;
  /** The context meter as the view shows it (pressure, window, last reduction); undefined before the first call. */
  context(): ContextView | undefined;
  /** The terminal view: what the "OpenDev" terminal and each background task's tab show. */
  terminal: TerminalViewApi;
  /** The "OpenDev Agent" terminals (Open OpenDev Terminal): keystrokes in, what they show out. */
  agentTerminals: AgentTerminalsApi;
  /** The session the chat is saved to (undefined before the first message, or without a folder). */
  sessionId(): string | undefined;
  /** Resolves when the chat's session writes (and a title in the making) are done. */
  sessionsSettled(): Promise<void>;
  /** Delivers a message as the chat view would send it (validated like one): scripts and tests drive the panel without its DOM. */
  fromView(message: unknown): void;
  /** Every message the extension sends the chat view (snapshots, entries, the history view's session lists…). */
  onViewMessage(listener: (message: ExtensionToWebview) => void): { dispose(): void };
  /** The status bar item as shown (model, mode, context; tooltip with provider, tokens, cost). */
  statusBar(): StatusBarView;
  /** What is typed in the chat input, as the view last reported it (Add Selection to Chat puts text there). */
  composerText(): string;
  /** Whether the chat view is shown and its input has the focus (Open Chat, New Chat). */
  chatView(): { visible: boolean; inputFocused: boolean };
  /** The rows of the Select Model quick pick while it is open (the focused one marked `active`). */
  modelPick(): readonly ModelPickRow[] | undefined;
  /** Answers an open card (approval, survey, plan review) exactly as the chat view does. */
  answer(message: AnswerMessage): AnswerOutcome;
  /** Edits waiting for approval in the diff editor (inline diff approval). */
  pendingReviews(): PendingReview[];
  /** The "MCP Servers" view as shown: each server's state, description and tooltip. */
  mcpServers: McpViewApi;
  /** How many changes of the project's configuration files the extension has taken in: a test that writes one waits for it to move. */
  projectConfigurationSeen(): number;
  /** The file VS Code writes the "OpenDev" log channel to (what Show Logs shows): tests read the real lines. */
  logFile(): string;
  /** The workspace's folders and the one the chat works in, as the chat header's picker shows them. */
  chatFolders(): { folders: FolderChoice[]; current?: string };
}
