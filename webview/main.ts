// First: the other modules' strings need the page's language bundle (localisation.ts).
import { html } from './localisation';
import * as l10n from '@vscode/l10n';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import { ExtensionToWebviewSchema, type BackgroundTaskView, type ChatEntry, type ExtensionToWebview, type WebviewToExtension } from '../src/shared/protocol';
import { renderActivity } from './activity';
import { Composer } from './composer';
import { handleCodeCopy } from './copy-code';
import { handleLinks } from './open-links';
import { renderEntry, updateText, type RenderContext } from './entries';
import { formatContext, formatCost, renderTodos } from './status';
import { vscode, type PersistedState } from './vscode-api';
import { HistoryView, type HistoryState } from './history';
import { FolderPicker } from './folder-picker';
import { VirtualTranscript } from './virtual-transcript';

/**
 * The chat panel. The extension owns the transcript and the live state (todos, cost, mode); this
 * renders them, sends what the user types and answers, and keeps a copy in the webview state so
 * a hidden or reloaded view repaints at once, drafts and open cards included.
 */

const app = document.getElementById('app')!;
app.innerHTML = `
  <header id="chat-header">
    <span id="folder" class="folder-choice" hidden></span>
    <span class="spacer"></span>
    <button id="history-open" type="button" class="header-button" aria-label="${html(l10n.t("History: this project's saved chats"))}" title="${html(l10n.t("History: search and resume this project's saved chats"))}">${html(l10n.t('History'))}</button>
  </header>
  <section id="history" aria-label="${html(l10n.t('Chat history'))}" hidden></section>
  <p id="empty">${html(l10n.t('Ask OpenDev about your code, or give it a task. Type / for commands, @ to attach files, problems, terminal output or the git diff; paste or drop images.'))}</p>
  <section id="transcript" role="log" aria-live="polite" aria-label="${html(l10n.t('Conversation'))}" tabindex="0"></section>
  <section id="todos" aria-label="${html(l10n.t('Todo list'))}" hidden></section>
  <section id="activity" aria-label="${html(l10n.t('Running now'))}" hidden></section>
  <form id="composer">
    <div id="progress" role="progressbar" aria-label="${html(l10n.t('OpenDev is working'))}" hidden></div>
    <div id="suggestions" role="listbox" aria-label="${html(l10n.t('Slash commands'))}" hidden></div>
    <vscode-textarea id="input" aria-label="${html(l10n.t('Ask OpenDev'))}" rows="3" resize="vertical"></vscode-textarea>
    <div id="attachments" role="list" aria-label="${html(l10n.t('Attached images'))}" hidden></div>
    <p id="attach-problem" role="status" hidden></p>
    <div class="composer-bar">
      <button id="mode" type="button" class="chip mode-chip">${html(l10n.t('Normal mode'))}</button>
      <span id="thinking-level" class="meta"></span>
      <span class="spacer"></span>
      <vscode-button id="send" aria-label="${html(l10n.t('Send'))}">${html(l10n.t('Send'))}</vscode-button>
      <vscode-button id="stop" aria-label="${html(l10n.t('Stop'))}" secondary hidden>${html(l10n.t('Stop'))}</vscode-button>
    </div>
    <div class="meta footer">
      <span id="context" role="meter" aria-label="${html(l10n.t('Context window in use'))}" aria-valuemin="0" aria-valuemax="100"></span>
      <span id="sandbox" aria-label="${html(l10n.t('Whether commands run in the sandbox'))}" hidden></span>
      <span class="spacer"></span>
      <span id="cost" aria-label="${html(l10n.t('Tokens and cost of this chat'))}"></span>
    </div>
  </form>`;

const transcript = document.getElementById('transcript')!;
const empty = document.getElementById('empty')!;
const todosPanel = document.getElementById('todos')!;
const progress = document.getElementById('progress')!;
const costLine = document.getElementById('cost')!;
const contextMeter = document.getElementById('context')!;
const sandboxState = document.getElementById('sandbox')!;
const activityPanel = document.getElementById('activity')!;
/** Background tasks still running (from the extension; subagents come from their cards). */
let tasks: BackgroundTaskView[] = [];
let activityShown = '';

/**
 * The transcript, windowed: only the entries near the viewport are in the DOM. New output keeps
 * the end in view while the user is there; sending a message or answering a card brings them back.
 */
const transcriptView = new VirtualTranscript({
  container: transcript,
  render: (entry) => renderEntry(entry, ctx),
  // An answered card loses its buttons: keyboard users continue in the input.
  onFocusLost: () => composer.focus(),
});
const post = (message: WebviewToExtension) => {
  if (message.type === 'send' || message.type.startsWith('answer')) transcriptView.stickToEnd();
  vscode.postMessage(message);
};
handleCodeCopy(transcript, post);
handleLinks(transcript, post);
const composer = new Composer(app, post, () => {
  persist(false);
  reportDraft();
});

/** Tells the extension what is typed (debounced): it answers "what is in the chat input" for the palette and the API. */
let draftTimer: ReturnType<typeof setTimeout> | undefined;
let reportedDraft = '';
function reportDraft(): void {
  clearTimeout(draftTimer);
  draftTimer = setTimeout(() => {
    const text = composer.value.slice(0, 100_000);
    if (text === reportedDraft) return;
    reportedDraft = text;
    post({ type: 'draft', text });
  }, 150);
}

const saved = vscode.getState() ?? {};
const state: PersistedState = {
  entries: [],
  draft: saved.draft ?? '',
  busy: saved.busy ?? false,
  todos: saved.todos ?? [],
  cost: saved.cost,
  context: saved.context,
  sandbox: saved.sandbox,
  mode: saved.mode ?? 'normal',
  thinkingLevel: saved.thinkingLevel ?? 'off',
  drafts: saved.drafts ?? {},
  toggled: saved.toggled ?? [],
};

const ctx: RenderContext = {
  post,
  draft: (key) => state.drafts[key],
  setDraft: (key, value) => {
    if (value === undefined) delete state.drafts[key];
    else state.drafts[key] = value;
    persist(false);
  },
  isToggled: (id) => state.toggled.includes(id),
  setToggled: (id, on) => {
    state.toggled = state.toggled.filter((t) => t !== id);
    if (on) state.toggled.push(id);
    persist(false);
  },
};

/** The history view (the header's History button, the view's title-bar button): it takes the panel's place while open. */
const historyState: HistoryState = { open: saved.history?.open ?? false, query: saved.history?.query ?? '' };
const history = new HistoryView(document.getElementById('history')!, post, historyState, () => {
  document.body.classList.toggle('history-open', history.isOpen);
  persist(false);
});
document.body.classList.toggle('history-open', historyState.open);
/** The folder the chat works in, when the workspace has several (folder-picker.ts). */
const folderPicker = new FolderPicker(document.getElementById('folder')!, post);
document.getElementById('history-open')!.addEventListener('click', () => (history.isOpen ? history.close() : history.open()));

/** The newest entries only: enough to repaint a reloaded view at once (the snapshot brings the rest), cheap to save. */
const SAVED_ENTRIES = 150;
const SAVED_OUTPUT_CHARS = 4_000;
function savedEntries(entries: readonly ChatEntry[]): ChatEntry[] {
  return entries.slice(-SAVED_ENTRIES).map((e) => (e.kind === 'tool' && e.output && e.output.length > SAVED_OUTPUT_CHARS ? { ...e, output: `${e.output.slice(0, SAVED_OUTPUT_CHARS)}…` } : e));
}

/** A performance mark once the frame after now has painted and the page takes input again (bench/ui reads them). */
function markPainted(name: string, entries = state.entries.length): void {
  requestAnimationFrame(() => setTimeout(() => performance.mark(name, { detail: { entries } }), 0));
}

// `state.entries` is the transcript's own list (read by the activity bar and when saving).
function upsert(entry: ChatEntry): void {
  transcriptView.upsert(entry);
  state.entries = transcriptView.all as ChatEntry[];
}

function remove(id: string): void {
  transcriptView.remove(id);
  state.entries = transcriptView.all as ChatEntry[];
}

function reset(entries: ChatEntry[]): void {
  transcriptView.reset(entries);
  state.entries = transcriptView.all as ChatEntry[];
}

function setBusy(busy: boolean): void {
  state.busy = busy;
  composer.setBusy(busy);
  progress.hidden = !busy;
  document.body.classList.toggle('busy', busy);
}

function showTodos(): void {
  renderTodos(todosPanel, state.todos, state.toggled.includes('todos'), (folded) => ctx.setToggled('todos', folded));
}

function showCost(): void {
  const { text, title } = formatCost(state.cost);
  costLine.textContent = text;
  costLine.title = title;
  costLine.hidden = !text;
}

function showContext(): void {
  const { text, title, level } = formatContext(state.context);
  contextMeter.textContent = text;
  contextMeter.title = title;
  contextMeter.hidden = !text;
  contextMeter.dataset.level = level;
  contextMeter.setAttribute('aria-valuenow', String(Math.round((state.context?.pressure ?? 0) * 100)));
  contextMeter.setAttribute('aria-valuetext', title);
}

/** "sandboxed" or "⚠ unsandboxed" (why, and the fix, in its title); nothing until the extension has said. */
function showSandbox(): void {
  const view = state.sandbox;
  sandboxState.hidden = !view;
  sandboxState.textContent = view ? (view.state === 'unsandboxed' ? '⚠ unsandboxed' : view.state) : '';
  sandboxState.title = view?.detail ?? '';
  sandboxState.dataset.state = view?.state.replace(' ', '-') ?? '';
}

/** The running subagents and background tasks above the input, redrawn only when they change. */
function showActivity(): void {
  const running = state.entries.filter((e) => e.kind === 'subagent' && e.status === 'running').map((e) => e.id);
  const key = JSON.stringify([running, tasks]);
  if (key === activityShown) return;
  activityShown = key;
  renderActivity(activityPanel, state.entries, tasks, post);
}

function persist(scroll: boolean): void {
  showActivity();
  empty.hidden = state.entries.length > 0;
  state.draft = composer.value;
  // Drafts of cards that are no longer waiting for an answer are dropped.
  const pending = new Set(state.entries.filter((e) => 'state' in e && e.state === 'pending').map((e) => e.id));
  for (const key of Object.keys(state.drafts)) if (!pending.has(key.split(':')[0]!)) delete state.drafts[key];
  // What the user did (typing, opening a card) is saved at once; what the extension sent, at most
  // every 200 ms: its snapshot brings that back anyway, and a long chat's copy is not free.
  if (scroll) saveSoon();
  else saveNow();
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;
function saveSoon(): void {
  saveTimer ??= setTimeout(saveNow, 200);
}
function saveNow(): void {
  clearTimeout(saveTimer);
  saveTimer = undefined;
  const scroll = transcriptView.anchor();
  vscode.setState({ ...state, entries: savedEntries(state.entries), history: historyState, ...(scroll ? { scroll } : { scroll: undefined }) });
}
// The view may be hidden (and its page dropped) at any moment: what waits is saved first.
window.addEventListener('pagehide', saveNow);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden') saveNow();
});
transcript.addEventListener('scroll', () => saveSoon(), { passive: true });

function apply(message: ExtensionToWebview): void {
  switch (message.type) {
    case 'snapshot':
      document.body.dataset.conversation = String(message.conversation);
      reset(message.entries);
      // The first snapshot after a reload puts the reader back where they were.
      if (savedScroll) transcriptView.restore(savedScroll);
      savedScroll = undefined;
      markPainted('opendev:snapshot-painted');
      setBusy(message.busy);
      tasks = message.tasks ?? [];
      state.todos = message.todos;
      state.cost = message.cost;
      state.context = message.context;
      state.sandbox = message.sandbox;
      state.mode = message.mode;
      state.thinkingLevel = message.thinkingLevel;
      composer.setAgentState(state.mode, state.thinkingLevel);
      showTodos();
      showCost();
      showContext();
      showSandbox();
      persist(true);
      return;
    case 'upsert':
      upsert(message.entry);
      break;
    case 'remove':
      remove(message.id);
      break;
    case 'textDelta': {
      const entry = transcriptView.get(message.id);
      if (entry?.kind !== 'assistant' && entry?.kind !== 'thinking') return;
      entry.text += message.delta;
      transcriptView.patch(entry.id, (el) => updateText(el, entry));
      break;
    }
    case 'busy':
      setBusy(message.busy);
      break;
    case 'todos':
      state.todos = message.todos;
      showTodos();
      break;
    case 'cost':
      state.cost = message.cost;
      showCost();
      break;
    case 'context':
      state.context = message.context;
      showContext();
      break;
    case 'sandbox':
      state.sandbox = { state: message.state, ...(message.detail ? { detail: message.detail } : {}) };
      showSandbox();
      break;
    case 'agentState':
      state.mode = message.mode;
      state.thinkingLevel = message.thinkingLevel;
      composer.setAgentState(message.mode, message.thinkingLevel);
      break;
    case 'completions':
      composer.showCompletions(message.text, message.items);
      return;
    case 'mentionCompletions':
      composer.showMentionCompletions(message.query, message.items);
      return;
    case 'tasks':
      tasks = message.tasks;
      break;
    case 'compose':
      if (message.text) composer.append(message.text);
      else composer.focus();
      return;
    case 'sessions':
      history.show(message.items, message.currentId, message.problem);
      return;
    case 'showHistory':
      history.open();
      return;
    case 'folders':
      folderPicker.show(message);
      return;
  }
  persist(true);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const received = performance.now();
  const parsed = ExtensionToWebviewSchema.safeParse(event.data);
  if (parsed.success && parsed.data.type === 'snapshot') performance.mark('opendev:snapshot-received', { startTime: received, detail: { entries: parsed.data.entries.length } });
  if (parsed.success) apply(parsed.data);
  else console.warn('OpenDev: dropped an invalid message from the extension', parsed.error.issues[0]);
});
document.getElementById('composer')!.addEventListener('submit', (event) => event.preventDefault());

// Repaint from the saved copy at once; the extension's snapshot follows and wins.
reset(saved.entries ?? []);
let savedScroll = saved.scroll;
if (savedScroll) transcriptView.restore(savedScroll);
composer.value = state.draft;
setBusy(state.busy);
composer.setAgentState(state.mode, state.thinkingLevel);
showTodos();
showCost();
showContext();
showSandbox();
persist(true);
if (history.isOpen) history.open({ keepQuery: true });
post({ type: 'ready' });
markPainted('opendev:first-paint');
reportDraft();
