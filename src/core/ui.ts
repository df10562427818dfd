import type { TokenUsage } from './token-usage';
import type { Todo } from './todo';
import type { ChangeHunk } from './change-hunk';
import type { FileChange, ToolResult } from './tool-result';

export type { FileChange } from './tool-result';

/**
 * The contract every front end implements (chat webview, OpenDev terminal, CLI).
 * The core calls these as things happen; a front end renders them. Only the first four are
 * required: a front end without a blocking method gets the harness's safe default (deny/cancel).
 */
export interface UICallback {
  onTextDelta(delta: string): void;
  onToolStart(call: { id: string; name: string; args: string }): void;
  onToolEnd(call: { id: string; name: string }, result: ToolResult): void;
  onUsage?(usage: TokenUsage): void;

  /** Reasoning the provider streams natively (Anthropic thinking, reasoning_content). */
  onThinkingDelta?(delta: string): void;
  /** The output of the harness's thinking phase (no tools), its critique, and the refined trace. */
  onThinkingTrace?(trace: string, phase: ThinkingPhase): void;
  /** The provider call is being retried: the partial answer of this call is discarded. */
  onRetry?(info: RetryInfo): void;
  /** Something the user should know: a doom-loop warning, the iteration cap, a denied request. */
  onNotice?(text: string, level: 'info' | 'warning'): void;
  onTodos?(todos: readonly Todo[]): void;
  onCost?(cost: CostSnapshot): void;
  onSubagentStart?(info: SubagentInfo): void;
  onSubagentEnd?(info: SubagentInfo & { status: 'completed' | 'failed' | 'stopped'; summary: string }): void;
  onModeChange?(mode: AgentMode): void;
  /**
   * Context pressure after every check at the start of an iteration, and each compaction stage
   * that removed or rewrote context (what ran, how many tokens it freed).
   */
  onContext?(info: ContextInfo): void;

  /** Blocking requests. They resolve when the user answers; `signal` aborts them (the request is then cancelled). */
  requestApproval?(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
  askUser?(questions: readonly AskUserQuestion[], signal: AbortSignal): Promise<AskUserAnswers | undefined>;
  reviewPlan?(plan: PlanForReview, signal: AbortSignal): Promise<PlanDecision>;
}

export interface ContextInfo {
  /** Prompt tokens / context window (0..1+), calibrated by the last API-reported prompt size. */
  pressure: number;
  promptTokens: number;
  contextWindow: number;
  /** Present when a stage just ran: warn, mask, prune, aggressive_mask, full_compaction. */
  stage?: string;
  tokensFreed?: number;
  messagesAffected?: number;
}

export type ThinkingPhase = 'thinking' | 'critique' | 'refined';
export type AgentMode = 'normal' | 'plan';

export interface RetryInfo {
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  reason: string;
  /** Cuts the wait short: the next attempt starts now (a front end's "Retry now"). */
  retryNow?: () => void;
}

export interface CostSnapshot {
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  /** The part of `outputTokens` spent reasoning, where the API reports it (absent when none did). */
  reasoningTokens?: number;
  /** Undefined when the model's pricing is unknown. */
  usd: number | undefined;
  calls: number;
}

export interface SubagentInfo {
  agentId: string;
  type: string;
  task: string;
  background: boolean;
}

/**
 * What makes an ask one that a blanket "approve everything" (`opendev -p --approval auto`) must
 * not answer: a write outside the workspace or to a path known only at run time, protected
 * configuration (git internals, the agent's and the editor's settings, MCP servers), a caution rule
 * (force push, git reset, recursive delete…), a line whose meaning is hidden, a secret location.
 */
export type MustAskKind = 'outside-workspace' | 'protected' | 'caution' | 'hidden' | 'secret' | 'unsandboxed';

export interface MustAskReason {
  kind: MustAskKind;
  /** One clause, as the judge gave it. */
  reason: string;
}

/** The strictest concern first (its kind and reason), and every concern of the call in `all`. */
export interface MustAsk extends MustAskReason {
  all: MustAskReason[];
}

/** A proposed edit as a person reviews it: the whole texts, and its hunks, computed once by the tool that proposes it. */
export interface ProposedEdit extends FileChange {
  /** `changeHunks(before, after)`: "hunk 2" is the same hunk on the card, in the editor and for the tool that applies the verdict. */
  hunks: readonly ChangeHunk[];
  /** The file does not exist yet. */
  creates?: true;
}

export interface ApprovalRequest {
  /**
   * `tool`: a tool call that needs consent; `doom_loop`: the agent keeps repeating one call;
   * `sandbox_host`: the sandbox blocked a connection to `host` (allow = this session, always = saved).
   */
  kind: 'tool' | 'doom_loop' | 'sandbox_host';
  /** For sandbox_host: the host that was blocked. */
  host?: string;
  toolName: string;
  /** One line saying what will happen, for the menu's title. */
  title: string;
  /**
   * The question is about the call itself (`toolName` with `args`; the approval gate's): a front end
   * may say it in its own words (src/wording/approval-headline.ts) instead of `title`.
   */
  aboutCall?: true;
  /** Why it is asked (a rule's reason), when one is given; `title` already ends with it. */
  reason?: string;
  /** The raw arguments, for display. */
  args: string;
  /** For a command: the command line, which the user may edit before allowing. */
  command?: string;
  /** For a command: whether it runs in the OS sandbox or with the user's full access. */
  sandbox?: 'inside' | 'outside';
  /** For edits: a unified diff of the proposed change. */
  diff?: string;
  /**
   * For edits: the file's whole text now and as the edit would leave it, so a front end can show
   * it in a diff editor and let the user decide hunk by hunk (`partial`).
   */
  proposed?: ProposedEdit;
  /**
   * Set when the ask is one a blanket approval must not answer (the approval gate fills it from the
   * judgement): outside the workspace, protected configuration, a caution rule, a hidden command, a
   * secret location. `kind`/`reason` is the strictest concern, `all` every one. Interactive front
   * ends may show it; `opendev -p --approval auto` refuses such a request unless a flag covers it.
   */
  mustAsk?: MustAsk;
}

export type ApprovalDecision =
  | { action: 'allow' }
  /** Allow, and do not ask again for this kind of call. */
  | { action: 'always' }
  /**
   * `unattended`: refused by the front end's policy, nobody was asked (`opendev -p`); `feedback` is
   * then the whole message the model reads, and the audit log says so.
   */
  | { action: 'deny'; feedback?: string; unattended?: boolean }
  | { action: 'edit'; command: string }
  /**
   * For a request with `proposed`: apply only these hunks, by index into `proposed.hunks`; the
   * model is told which hunks were rejected. Every hunk = allow, none = deny.
   */
  | { action: 'partial'; acceptedHunks: number[] };

export interface AskUserOption {
  label: string;
  description: string;
}
export interface AskUserQuestion {
  header: string;
  question: string;
  options: AskUserOption[];
  multiSelect: boolean;
}
/** One answer per question, in order: the chosen labels and, when "Other" was picked, the typed text. */
export interface AskUserAnswers {
  answers: Array<{ header: string; selected: string[]; other?: string }>;
}

export interface PlanForReview {
  path: string;
  content: string;
}
export type PlanDecision =
  | { action: 'approve_auto' }
  | { action: 'approve' }
  | { action: 'modify'; feedback: string };

/** A front end that renders nothing and has no human to ask (subagents, tests). */
export const silentUI: UICallback = {
  onTextDelta() {},
  onToolStart() {},
  onToolEnd() {},
};
