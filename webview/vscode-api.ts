import type { HistoryState } from './history';
import type { ScrollAnchor } from './virtual-transcript';
import type { AgentModeView, ChatEntry, ContextView, CostView, SandboxView, ThinkingLevelView, TodoView, WebviewToExtension } from '../src/shared/protocol';

interface VsCodeApi {
  postMessage(message: WebviewToExtension): void;
  getState(): Partial<PersistedState> | undefined;
  setState(state: PersistedState): void;
}

/** What survives the view being hidden or reloaded before the extension's snapshot arrives. */
export interface PersistedState {
  entries: ChatEntry[];
  draft: string;
  busy: boolean;
  todos: TodoView[];
  cost: CostView | undefined;
  context: ContextView | undefined;
  /** Whether commands run in the sandbox, as the extension last said. */
  sandbox?: SandboxView | undefined;
  mode: AgentModeView;
  thinkingLevel: ThinkingLevelView;
  /** What the user has typed or picked in open cards, by `<entry id>:<field>`. */
  drafts: Record<string, string>;
  /** Ids of the collapsible cards the user opened (thinking traces…), and `todos` when the list is folded. */
  toggled: string[];
  /** Where the reader had scrolled to (absent: at the end). Only the newest entries are kept above; the snapshot brings the rest. */
  scroll?: ScrollAnchor;
  /** The history view: open or not, and what was typed in its search box. */
  history?: HistoryState;
}

declare function acquireVsCodeApi(): VsCodeApi;

export const vscode = acquireVsCodeApi();
