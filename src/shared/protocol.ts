import { z } from 'zod';

/**
 * The chat webview ⇄ extension protocol: one discriminated union per direction, validated with
 * zod on receipt on both sides. Nothing the webview sends is used before it parses here.
 * The shapes mirror the core's UICallback types (src/core/ui.ts) without importing them, so the
 * webview bundle stays free of the core.
 */

const id = z.string().min(1).max(200);
const MAX_TEXT = 100_000;

export const AgentModeSchema = z.enum(['normal', 'plan']);
export const ThinkingLevelSchema = z.enum(['off', 'low', 'medium', 'high']);

/** The harness's thinking phases, plus `reasoning`: what the provider streams natively. */
export const ThinkingPhaseSchema = z.enum(['thinking', 'critique', 'refined', 'reasoning']);

export const ApprovalRequestSchema = z.object({
  kind: z.enum(['tool', 'doom_loop']),
  toolName: z.string(),
  title: z.string(),
  args: z.string(),
  command: z.string().optional(),
  diff: z.string().optional(),
});

export const ApprovalDecisionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('allow') }),
  z.object({ action: z.literal('always') }),
  z.object({ action: z.literal('deny'), feedback: z.string().trim().max(10_000).optional() }),
  z.object({ action: z.literal('edit'), command: z.string().trim().min(1).max(10_000) }),
]);

export const AskUserQuestionSchema = z.object({
  header: z.string(),
  question: z.string(),
  options: z.array(z.object({ label: z.string(), description: z.string() })),
  multiSelect: z.boolean(),
});

export const AskUserAnswersSchema = z.object({
  answers: z
    .array(
      z.object({
        header: z.string().max(200),
        selected: z.array(z.string().max(200)).max(20),
        other: z.string().max(10_000).optional(),
      }),
    )
    .max(20),
});

export const PlanDecisionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('approve_auto') }),
  z.object({ action: z.literal('approve') }),
  z.object({ action: z.literal('modify'), feedback: z.string().trim().min(1).max(MAX_TEXT) }),
]);

export const TodoSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(['todo', 'doing', 'done']),
  log: z.string().optional(),
});

/** Tokens and money of the session so far; `usd` is absent when the model's price is unknown. */
export const CostSchema = z.object({
  inputTokens: z.number().nonnegative(),
  cachedTokens: z.number().nonnegative(),
  outputTokens: z.number().nonnegative(),
  usd: z.number().nonnegative().optional(),
  calls: z.number().int().nonnegative(),
});

/** The context meter: how full the model's window is, and the last stage that reduced it. */
export const ContextSchema = z.object({
  pressure: z.number().nonnegative(),
  promptTokens: z.number().nonnegative(),
  contextWindow: z.number().nonnegative(),
  lastStage: z.string().max(40).optional(),
  lastFreed: z.number().nonnegative().optional(),
});

/** A blocking request's card: waiting for the user, answered, or withdrawn (Stop, end of turn). */
const RequestStateSchema = z.enum(['pending', 'answered', 'cancelled']);

export const ChatEntrySchema = z.discriminatedUnion('kind', [
  /** `queued`: typed while the agent was working; it joins the conversation at the next step. */
  z.object({ kind: z.literal('user'), id, text: z.string(), queued: z.boolean().optional() }),
  z.object({ kind: z.literal('assistant'), id, text: z.string() }),
  z.object({
    kind: z.literal('tool'),
    id,
    name: z.string(),
    args: z.string(),
    status: z.enum(['running', 'ok', 'error']),
    summary: z.string().optional(),
    /** The output the tool returned (capped), behind the summary line: the card expands to show it. */
    output: z.string().optional(),
  }),
  z.object({
    kind: z.literal('error'),
    id,
    text: z.string(),
    /** A fix the user can apply with one click. */
    action: z.enum(['setApiKey', 'openSettings']).optional(),
  }),
  /** Something to know (retries, doom-loop warnings, "Stopped."); `command`: a slash command's output. */
  z.object({
    kind: z.literal('notice'),
    id,
    text: z.string(),
    level: z.enum(['info', 'warning']).optional(),
    command: z.string().optional(),
  }),
  /** A thinking-phase trace (collapsible), or the provider's native reasoning as it streams. */
  z.object({ kind: z.literal('thinking'), id, phase: ThinkingPhaseSchema, text: z.string() }),
  z.object({
    kind: z.literal('subagent'),
    id,
    agentId: z.string(),
    type: z.string(),
    task: z.string(),
    background: z.boolean(),
    status: z.enum(['running', 'completed', 'failed', 'stopped']),
    summary: z.string().optional(),
  }),
  z.object({
    kind: z.literal('approval'),
    id,
    request: ApprovalRequestSchema,
    state: RequestStateSchema,
    decision: ApprovalDecisionSchema.optional(),
  }),
  z.object({
    kind: z.literal('question'),
    id,
    questions: z.array(AskUserQuestionSchema),
    state: RequestStateSchema,
    /** Absent when skipped or cancelled. */
    answers: AskUserAnswersSchema.optional(),
  }),
  z.object({
    kind: z.literal('plan'),
    id,
    path: z.string(),
    content: z.string(),
    state: RequestStateSchema,
    decision: PlanDecisionSchema.optional(),
  }),
]);
export type ChatEntry = z.infer<typeof ChatEntrySchema>;
export type ChatEntryOf<K extends ChatEntry['kind']> = Extract<ChatEntry, { kind: K }>;
export type TodoView = z.infer<typeof TodoSchema>;
export type CostView = z.infer<typeof CostSchema>;
export type ContextView = z.infer<typeof ContextSchema>;
export type AgentModeView = z.infer<typeof AgentModeSchema>;
export type ThinkingLevelView = z.infer<typeof ThinkingLevelSchema>;

export const SlashCompletionSchema = z.object({ name: z.string(), description: z.string() });
export type SlashCompletion = z.infer<typeof SlashCompletionSchema>;

export const ExtensionToWebviewSchema = z.discriminatedUnion('type', [
  /** Everything the view shows: sent when the view (re)loads and on New Chat. */
  z.object({
    type: z.literal('snapshot'),
    entries: z.array(ChatEntrySchema),
    busy: z.boolean(),
    todos: z.array(TodoSchema),
    cost: CostSchema.optional(),
    context: ContextSchema.optional(),
    mode: AgentModeSchema,
    thinkingLevel: ThinkingLevelSchema,
  }),
  /** Adds an entry, or replaces the entry with the same id. */
  z.object({ type: z.literal('upsert'), entry: ChatEntrySchema }),
  /** Removes an entry (a partial answer discarded by a provider retry). */
  z.object({ type: z.literal('remove'), id }),
  /** Appends streamed text to an assistant or thinking entry. */
  z.object({ type: z.literal('textDelta'), id, delta: z.string() }),
  z.object({ type: z.literal('busy'), busy: z.boolean() }),
  /** The live todo list, pinned above the input. */
  z.object({ type: z.literal('todos'), todos: z.array(TodoSchema) }),
  z.object({ type: z.literal('cost'), cost: CostSchema }),
  z.object({ type: z.literal('context'), context: ContextSchema }),
  z.object({ type: z.literal('agentState'), mode: AgentModeSchema, thinkingLevel: ThinkingLevelSchema }),
  /** The answer to `complete`: slash commands matching what the user typed. */
  z.object({ type: z.literal('completions'), text: z.string(), items: z.array(SlashCompletionSchema).max(50) }),
]);
export type ExtensionToWebview = z.infer<typeof ExtensionToWebviewSchema>;

export const WebviewToExtensionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('send'), text: z.string().trim().min(1).max(MAX_TEXT) }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('action'), action: z.enum(['setApiKey', 'openSettings']) }),
  /** The user's answer to an approval card. */
  z.object({ type: z.literal('answerApproval'), id, decision: ApprovalDecisionSchema }),
  /** The user's answers to an ask_user survey; `null` when they skipped it. */
  z.object({ type: z.literal('answerQuestions'), id, answers: AskUserAnswersSchema.nullable() }),
  z.object({ type: z.literal('answerPlan'), id, decision: PlanDecisionSchema }),
  /** Asks for slash-command completions of the input (only while it is a bare `/word`). */
  z.object({ type: z.literal('complete'), text: z.string().startsWith('/').max(200) }),
  /** Toggles plan/normal mode (the mode chip). */
  z.object({ type: z.literal('switchMode') }),
  /**
   * Where the focus is (the view, its input) and whether the suggestion list is open: they drive
   * the context keys of the view's keybindings (Escape = Stop, Shift+Tab = Switch Mode).
   */
  z.object({ type: z.literal('inputState'), viewFocused: z.boolean(), inputFocused: z.boolean(), suggesting: z.boolean() }),
]);
export type WebviewToExtension = z.infer<typeof WebviewToExtensionSchema>;
export type AnswerMessage = Extract<WebviewToExtension, { type: 'answerApproval' | 'answerQuestions' | 'answerPlan' }>;
