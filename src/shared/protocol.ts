import * as z from 'zod/mini';
import { ImageAttachmentSchema, MAX_IMAGES_PER_MESSAGE } from './image-attachment';
import { LinkTargetSchema } from './link-target';

/**
 * The chat webview ⇄ extension protocol: one discriminated union per direction, validated with
 * zod on receipt on both sides. Nothing the webview sends is used before it parses here.
 * The shapes mirror the core's UICallback types (src/core/ui.ts) without importing them, so the
 * webview bundle stays free of the core. Written with `zod/mini` (the same schemas, checks as
 * functions): the full zod is 440 KiB in the webview's script, this is a tenth of that.
 */

/** A string of at most `max` characters. */
const text = (max: number) => z.string().check(z.maxLength(max));
/** A whole number ≥ 0 (counts, indexes). */
const count = () => z.int().check(z.nonnegative());
/** A number ≥ 0 (tokens, money). */
const amount = () => z.number().check(z.nonnegative());
/** A list of at most `max` items. */
const list = <T extends z.ZodMiniType>(item: T, max: number) => z.array(item).check(z.maxLength(max));

const id = z.string().check(z.minLength(1), z.maxLength(200));
const MAX_TEXT = 100_000;

export const AgentModeSchema = z.enum(['normal', 'plan']);
/** The model APIs OpenDev talks to (the core's ProviderKind). */
export const ProviderKindSchema = z.enum(['openai', 'anthropic', 'openai-compatible', 'azure-openai', 'bedrock', 'vertex', 'gemini', 'openrouter', 'vscode-lm']);
export const ThinkingLevelSchema = z.enum(['off', 'low', 'medium', 'high']);

/** The harness's thinking phases, plus `reasoning`: what the provider streams natively. */
export const ThinkingPhaseSchema = z.enum(['thinking', 'critique', 'refined', 'reasoning']);

/** Hunks an approval card lists one by one; an edit with more is reviewed as a whole there (hunk by hunk in the diff editor). */
export const MAX_HUNK_PREVIEWS = 100;

/**
 * One hunk of a proposed edit as the approval card shows it: `index` into the extension's
 * `changeHunks` (what an accepted hunk refers to), where it sits, and its lines as unified-diff
 * text (`-`/`+`, with a little unchanged context as ` ` lines).
 */
export const HunkPreviewSchema = z.object({
  index: count(),
  /** "lines 4–6", "after line 12" (in the file as it is). */
  where: text(200),
  added: count(),
  removed: count(),
  lines: text(200_000),
});
export type HunkPreview = z.infer<typeof HunkPreviewSchema>;

/** One hunk of an edit under review: accepted or rejected (undecided hunks have none). */
export const HunkVerdictSchema = z.enum(['accepted', 'rejected']);
export type HunkVerdictView = z.infer<typeof HunkVerdictSchema>;

export const ApprovalRequestSchema = z.object({
  kind: z.enum(['tool', 'doom_loop', 'sandbox_host']),
  toolName: z.string(),
  title: z.string(),
  args: z.string(),
  command: z.optional(z.string()),
  /** A command's: whether it runs in the OS sandbox. */
  sandbox: z.optional(z.enum(['inside', 'outside'])),
  /** sandbox_host: the host the sandbox blocked. */
  host: z.optional(z.string()),
  diff: z.optional(z.string()),
  /** An edit shown in the diff editor too, answerable there hunk by hunk: how many hunks it has. */
  hunks: z.optional(count()),
  /** The same hunks to decide one by one in the card (absent for a single hunk, or too many to list). */
  hunkPreviews: z.optional(list(HunkPreviewSchema, MAX_HUNK_PREVIEWS)),
});

export const ApprovalDecisionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('allow') }),
  z.object({ action: z.literal('always') }),
  z.object({ action: z.literal('deny'), feedback: z.optional(z.string().check(z.trim(), z.maxLength(10_000))) }),
  z.object({ action: z.literal('edit'), command: z.string().check(z.trim(), z.minLength(1), z.maxLength(10_000)) }),
  /** An edit decided hunk by hunk: the hunks (0-based) to apply; the rest are rejected. */
  z.object({ action: z.literal('partial'), acceptedHunks: list(count(), 10_000) }),
]);

export const AskUserQuestionSchema = z.object({
  header: z.string(),
  question: z.string(),
  options: z.array(z.object({ label: z.string(), description: z.string() })),
  multiSelect: z.boolean(),
});

export const AskUserAnswersSchema = z.object({
  answers: list(
    z.object({
      header: text(200),
      selected: list(text(200), 20),
      other: z.optional(text(10_000)),
    }),
    20,
  ),
});

export const PlanDecisionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('approve_auto') }),
  z.object({ action: z.literal('approve') }),
  z.object({ action: z.literal('modify'), feedback: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_TEXT)) }),
]);

export const TodoSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(['todo', 'doing', 'done']),
  log: z.optional(z.string()),
});

/** Tokens and money of the session so far; `usd` is absent when the model's price is unknown. */
export const CostSchema = z.object({
  inputTokens: amount(),
  cachedTokens: amount(),
  outputTokens: amount(),
  usd: z.optional(amount()),
  calls: count(),
});

/** The context meter: how full the model's window is, and the last stage that reduced it. */
export const ContextSchema = z.object({
  pressure: amount(),
  promptTokens: amount(),
  contextWindow: amount(),
  lastStage: z.optional(text(40)),
  lastFreed: z.optional(amount()),
});

/**
 * Whether the chat's commands run in the OS sandbox (the footer and the status bar say it):
 * `detail` says why not and the fix, or what the sandbox allows.
 */
export const SandboxViewSchema = z.object({
  state: z.enum(['sandboxed', 'unsandboxed', 'sandbox starting']),
  detail: z.optional(text(2_000)),
  /** Unsandboxed because the user turned it off (no warning in the status bar; the tooltip says so). */
  off: z.optional(z.boolean()),
});

/** What an `@` mention refers to: a workspace file or folder, or a special source. */
export const MentionKindSchema = z.enum(['file', 'folder', 'problems', 'terminal', 'git']);

/** A mention chip on a sent message; `ok` false when it resolved but could not be read. */
export const MentionChipSchema = z.object({ target: z.string().check(z.minLength(1), z.maxLength(1_000)), kind: MentionKindSchema, ok: z.boolean() });

/** A small preview of an attached image (a data URL the webview made), for its chip. */
export const ThumbnailSchema = z
  .string()
  .check(z.maxLength(200_000), z.regex(/^data:image\/(png|jpeg|webp|gif);base64,[A-Za-z0-9+/]+=*$/, 'a thumbnail is a base64 image data URL'));

export const ImageChipSchema = z.object({ name: z.optional(text(200)), thumbnail: ThumbnailSchema });

/** A background task the agent started (its terminal tab shows it). */
export const BackgroundTaskSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)), command: text(2_000) });

/** A blocking request's card: waiting for the user, answered, or withdrawn (Stop, end of turn). */
const RequestStateSchema = z.enum(['pending', 'answered', 'cancelled']);

/**
 * A model the setup card offers to use with one click, in the order offered (a Language Model API
 * model, a local server that answered…): the button's label and its tooltip.
 */
export const SetupOfferSchema = z.object({ id, label: text(200), detail: text(500) });
export type SetupOffer = z.infer<typeof SetupOfferSchema>;

export const ChatEntrySchema = z.discriminatedUnion('kind', [
  /** `queued`: typed while the agent was working; it joins the conversation at the next step. */
  z.object({
    kind: z.literal('user'),
    id,
    text: z.string(),
    queued: z.optional(z.boolean()),
    /** The `@` mentions that were attached as context (shown as chips in the text). */
    mentions: z.optional(list(MentionChipSchema, 100)),
    /** The images sent with the message (their thumbnails). */
    images: z.optional(list(ImageChipSchema, MAX_IMAGES_PER_MESSAGE)),
  }),
  z.object({ kind: z.literal('assistant'), id, text: z.string() }),
  z.object({
    kind: z.literal('tool'),
    id,
    name: z.string(),
    args: z.string(),
    status: z.enum(['running', 'ok', 'error']),
    /**
     * What happened, for a person ("Read math.ts · 12 lines", "Ran npm test · exit 0 · 3.2 s"): the
     * card's header (src/wording/tool-headline.ts words it). The raw name, arguments and output stay behind it.
     */
    headline: z.optional(text(500)),
    summary: z.optional(z.string()),
    /** The output the tool returned (capped), behind the summary line: the card expands to show it. */
    output: z.optional(z.string()),
    /**
     * Set on the first card of a step that changed files (the undo history's step number): the card
     * offers "Restore to here"; `undone` once that step has been undone.
     */
    step: z.optional(z.int().check(z.positive())),
    undone: z.optional(z.boolean()),
    /** A finished edit whose before/after is kept: the card offers "Show diff" (`showDiff` with this id). */
    diffId: z.optional(text(200)),
  }),
  z.object({
    kind: z.literal('error'),
    id,
    text: z.string(),
    /** A fix the user can apply with one click. */
    action: z.optional(z.enum(['setApiKey', 'openSettings'])),
    /** A failed turn: the card offers Retry (`retryTurn` with this id), which sends that turn again. */
    retry: z.optional(z.boolean()),
  }),
  /**
   * A provider call being retried: ONE line for consecutive retries of a turn, with the wait (the
   * view counts it down from when it got the entry) and "Retry now" (`retryNow` with this id).
   * `waiting` false: the wait is over and the next attempt is running.
   */
  z.object({
    kind: z.literal('retry'),
    id,
    attempt: count(),
    maxAttempts: count(),
    delayMs: amount(),
    reason: text(1_000),
    waiting: z.boolean(),
  }),
  /** Something to know (retries, doom-loop warnings, "Stopped."); `command`: a slash command's output. */
  z.object({
    kind: z.literal('notice'),
    id,
    text: z.string(),
    level: z.optional(z.enum(['info', 'warning'])),
    command: z.optional(z.string()),
  }),
  /**
   * Nothing to talk to yet (no API key for the provider): a friendly card with the fixes as buttons,
   * not an error. `provider` is the one the key is missing for.
   */
  z.object({ kind: z.literal('setup'), id, provider: ProviderKindSchema, title: z.string(), text: z.string(), offers: z.optional(list(SetupOfferSchema, 8)) }),
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
    summary: z.optional(z.string()),
  }),
  z.object({
    kind: z.literal('approval'),
    id,
    request: ApprovalRequestSchema,
    state: RequestStateSchema,
    decision: z.optional(ApprovalDecisionSchema),
    /**
     * The hunks decided so far, wherever they were decided (this card or the editor's CodeLens): the
     * extension holds them, so the card and the lenses always show the same decisions.
     */
    verdicts: z.optional(list(z.object({ index: count(), verdict: HunkVerdictSchema }), 10_000)),
  }),
  z.object({
    kind: z.literal('question'),
    id,
    questions: z.array(AskUserQuestionSchema),
    state: RequestStateSchema,
    /** Absent when skipped or cancelled. */
    answers: z.optional(AskUserAnswersSchema),
  }),
  z.object({
    kind: z.literal('plan'),
    id,
    path: z.string(),
    content: z.string(),
    state: RequestStateSchema,
    decision: z.optional(PlanDecisionSchema),
  }),
]);
export type ChatEntry = z.infer<typeof ChatEntrySchema>;
export type ChatEntryOf<K extends ChatEntry['kind']> = Extract<ChatEntry, { kind: K }>;
export type TodoView = z.infer<typeof TodoSchema>;
export type CostView = z.infer<typeof CostSchema>;
export type ContextView = z.infer<typeof ContextSchema>;
export type SandboxView = z.infer<typeof SandboxViewSchema>;
export type AgentModeView = z.infer<typeof AgentModeSchema>;
export type ThinkingLevelView = z.infer<typeof ThinkingLevelSchema>;

/** `hint`: the command's arguments (`[off|low|medium|high]`), shown after its name. */
export const SlashCompletionSchema = z.object({ name: z.string(), description: z.string(), hint: z.optional(z.string()) });
export type SlashCompletion = z.infer<typeof SlashCompletionSchema>;

/** One `@` completion: what to insert (a path or a special source) and what it is. */
export const MentionCompletionSchema = z.object({
  target: z.string().check(z.minLength(1), z.maxLength(1_000)),
  kind: MentionKindSchema,
  detail: z.optional(text(500)),
});
export type MentionCompletion = z.infer<typeof MentionCompletionSchema>;
export type MentionChip = z.infer<typeof MentionChipSchema>;
export type ImageChip = z.infer<typeof ImageChipSchema>;
export type BackgroundTaskView = z.infer<typeof BackgroundTaskSchema>;

/** An image the user attached in the composer: the image itself and the chip's thumbnail. */
export const ImageUploadSchema = z.object({ image: ImageAttachmentSchema, thumbnail: ThumbnailSchema });
export type ImageUpload = z.infer<typeof ImageUploadSchema>;

/** A saved session's id (8 characters of [a-z0-9]). */
const sessionId = z.string().check(z.regex(/^[a-z0-9]{8}$/));

/** A workspace folder the chat can work in (a multi-root workspace has several): `id` is its URI. */
export const FolderChoiceSchema = z.object({ id: text(4_000), name: text(500), path: text(4_000) });
export type FolderChoice = z.infer<typeof FolderChoiceSchema>;

/** One saved session of the project, as the history view lists it. */
export const SessionSummarySchema = z.object({
  id: sessionId,
  title: text(500),
  /** The user's first message (clipped): searched with the title. */
  firstPrompt: text(2_000),
  createdAt: text(40),
  updatedAt: text(40),
  messageCount: count(),
  /** Undefined when the model's price was unknown. */
  usd: z.optional(amount()),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

export const ExtensionToWebviewSchema = z.discriminatedUnion('type', [
  /** Everything the view shows: sent when the view (re)loads and on New Chat. */
  z.object({
    type: z.literal('snapshot'),
    /** Which conversation of this chat it is: New Chat counts up (the view marks it on its page). */
    conversation: count(),
    entries: z.array(ChatEntrySchema),
    busy: z.boolean(),
    todos: z.array(TodoSchema),
    cost: z.optional(CostSchema),
    context: z.optional(ContextSchema),
    mode: AgentModeSchema,
    thinkingLevel: ThinkingLevelSchema,
    /** Background tasks still running. */
    tasks: z.optional(list(BackgroundTaskSchema, 100)),
    /** Whether commands run sandboxed (absent until the chat's first agent has said). */
    sandbox: z.optional(SandboxViewSchema),
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
  /** Whether the chat's commands run in the sandbox, once its agent knows (and after a rebuilt agent). */
  z.object({ type: z.literal('sandbox'), ...SandboxViewSchema.shape }),
  /** Focuses the chat input, after appending `text` to what is typed there (Add Selection to Chat). */
  z.object({ type: z.literal('compose'), text: z.optional(text(MAX_TEXT)) }),
  /** The answer to `complete`: slash commands matching what the user typed. */
  z.object({ type: z.literal('completions'), text: z.string(), items: list(SlashCompletionSchema, 50) }),
  /** The answer to `completeMention`: paths and sources matching the `@query` being typed. */
  z.object({ type: z.literal('mentionCompletions'), query: z.string(), items: list(MentionCompletionSchema, 50) }),
  /** The background tasks still running (the indicator above the input lists them). */
  z.object({ type: z.literal('tasks'), tasks: list(BackgroundTaskSchema, 100) }),
  /**
   * The project's sessions, newest first (the answer to `listSessions`, and after a delete);
   * `currentId`: the chat's own session; `problem`: why the last request did nothing.
   */
  z.object({ type: z.literal('sessions'), items: list(SessionSummarySchema, 10_000), currentId: z.optional(sessionId), problem: z.optional(text(1_000)) }),
  /** Opens the history view (the view's title-bar button). */
  z.object({ type: z.literal('showHistory') }),
  /** The workspace's folders and the one the chat works in (the header's picker shows them when there are several). */
  z.object({ type: z.literal('folders'), folders: list(FolderChoiceSchema, 1_000), current: z.optional(text(4_000)) }),
]);
export type ExtensionToWebview = z.infer<typeof ExtensionToWebviewSchema>;

export const WebviewToExtensionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** `images`: pasted or dropped images, as vision input (type, size and signature checked here). */
  z.object({
    type: z.literal('send'),
    text: z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_TEXT)),
    images: z.optional(list(ImageUploadSchema, MAX_IMAGES_PER_MESSAGE)),
  }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('newChat') }),
  /** A card's fix: `provider` says whose key to set (the setup card knows). */
  /** `useOffer`: the setup card's offer `offer` (its id) was chosen; the extension applies the offer it made, nothing the message says. */
  z.object({ type: z.literal('action'), action: z.enum(['setApiKey', 'openSettings', 'chooseProvider', 'useOffer']), provider: z.optional(ProviderKindSchema), offer: z.optional(id) }),
  /** What is typed in the input (debounced), so the extension knows the draft (API, Add Selection). */
  z.object({ type: z.literal('draft'), text: text(MAX_TEXT) }),
  /** One hunk of a pending edit approval decided in the card (`verdict` null: undecided again); the lenses follow. */
  z.object({ type: z.literal('decideHunk'), id, index: count(), verdict: z.nullable(HunkVerdictSchema) }),
  /** "Retry now" on the retry line: the waiting provider call tries again at once. */
  z.object({ type: z.literal('retryNow'), id }),
  /** Retry on a failed turn's error card: the turn is sent again. */
  z.object({ type: z.literal('retryTurn'), id }),
  /** The user's answer to an approval card. */
  z.object({ type: z.literal('answerApproval'), id, decision: ApprovalDecisionSchema }),
  /** The user's answers to an ask_user survey; `null` when they skipped it. */
  z.object({ type: z.literal('answerQuestions'), id, answers: z.nullable(AskUserAnswersSchema) }),
  z.object({ type: z.literal('answerPlan'), id, decision: PlanDecisionSchema }),
  /** Asks for slash-command completions of the input (only while it is a bare `/word`). */
  z.object({ type: z.literal('complete'), text: z.string().check(z.startsWith('/'), z.maxLength(200)) }),
  /** Asks for `@` completions of what follows the `@` being typed (quotes left out). */
  z.object({ type: z.literal('completeMention'), query: text(200) }),
  /** Opens a background task's terminal tab (the indicator's button). */
  z.object({ type: z.literal('openTask'), id: z.string().check(z.minLength(1), z.maxLength(64)) }),
  /** Opens a diff in the editor: a pending edit approval's proposal (its card id) or a finished edit's (`diffId`). */
  z.object({ type: z.literal('showDiff'), id }),
  /** Toggles plan/normal mode (the mode chip). */
  z.object({ type: z.literal('switchMode') }),
  /**
   * Where the focus is (the view, its input) and whether the suggestion list is open: they drive
   * the context keys of the view's keybindings (Escape = Stop, Alt+M = Switch Mode).
   */
  z.object({ type: z.literal('inputState'), viewFocused: z.boolean(), inputFocused: z.boolean(), suggesting: z.boolean() }),
  /** The history view asks for the project's sessions. */
  z.object({ type: z.literal('listSessions') }),
  /** Continues a saved session in the chat (its transcript rebuilt from the saved messages). */
  z.object({ type: z.literal('resumeSession'), id: sessionId }),
  /** Deletes a saved session (the view asked the user first). */
  z.object({ type: z.literal('deleteSession'), id: sessionId }),
  /** Copies a code block's text where the view's own clipboard was refused (`vscode.env.clipboard`). */
  z.object({ type: z.literal('copyText'), text: text(2_000_000) }),
  /** A link in an answer was clicked: a workspace file (opened at the line) or a web address (link-target.ts). */
  z.object({ type: z.literal('openLink'), target: LinkTargetSchema }),
  /** "Restore to here": the files as they were just before `step` (the view asked the user first). */
  z.object({ type: z.literal('restoreTo'), step: z.int().check(z.positive(), z.maximum(1_000_000)) }),
  /** The header's folder picker: the chat works in this folder (its URI) from now on, in a new chat. */
  z.object({ type: z.literal('pickFolder'), id: text(4_000) }),
]);
export type WebviewToExtension = z.infer<typeof WebviewToExtensionSchema>;
export type AnswerMessage = Extract<WebviewToExtension, { type: 'answerApproval' | 'answerQuestions' | 'answerPlan' }>;

/** The page's localisation, in the page before its script runs (not a message): VS Code's display language and its bundle (empty: English). */
export const WebviewL10nSchema = z.object({ language: z.string().check(z.maxLength(64)), bundle: z.record(z.string(), z.string()) });
export type WebviewL10n = z.infer<typeof WebviewL10nSchema>;
/** The id of the page's <script type="application/json"> element that holds it. */
export const WEBVIEW_L10N_ELEMENT_ID = 'opendev-l10n';
