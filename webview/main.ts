import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import { ExtensionToWebviewSchema, type ChatEntry, type ExtensionToWebview, type WebviewToExtension } from '../src/shared/protocol';
import { Composer } from './composer';
import { renderEntry, updateText, type RenderContext } from './entries';
import { formatContext, formatCost, renderTodos } from './status';
import { vscode, type PersistedState } from './vscode-api';

/**
 * The chat panel. The extension owns the transcript and the live state (todos, cost, mode); this
 * renders them, sends what the user types and answers, and keeps a copy in the webview state so
 * a hidden or reloaded view repaints at once, drafts and open cards included.
 */

const app = document.getElementById('app')!;
app.innerHTML = `
  <p id="empty">Ask OpenDev about your code, or give it a task. Type / for commands.</p>
  <section id="transcript" role="log" aria-live="polite" aria-label="Conversation"></section>
  <section id="todos" aria-label="Todo list" hidden></section>
  <form id="composer">
    <div id="progress" role="progressbar" aria-label="OpenDev is working" hidden></div>
    <div id="suggestions" role="listbox" aria-label="Slash commands" hidden></div>
    <vscode-textarea id="input" aria-label="Ask OpenDev" rows="3" resize="vertical"></vscode-textarea>
    <div class="composer-bar">
      <button id="mode" type="button" class="chip mode-chip">Normal mode</button>
      <span id="thinking-level" class="meta"></span>
      <span class="spacer"></span>
      <vscode-button id="send" aria-label="Send">Send</vscode-button>
      <vscode-button id="stop" aria-label="Stop" secondary hidden>Stop</vscode-button>
    </div>
    <div class="meta footer">
      <span id="context" role="meter" aria-label="Context window in use" aria-valuemin="0" aria-valuemax="100"></span>
      <span class="spacer"></span>
      <span id="cost" aria-label="Tokens and cost of this chat"></span>
    </div>
  </form>`;

const transcript = document.getElementById('transcript')!;
const empty = document.getElementById('empty')!;
const todosPanel = document.getElementById('todos')!;
const progress = document.getElementById('progress')!;
const costLine = document.getElementById('cost')!;
const contextMeter = document.getElementById('context')!;

/**
 * Whether new output scrolls the transcript: true while the user is at its end, false once they
 * scroll up to read; sending a message or answering a card brings them back to the end.
 */
let stick = true;
const post = (message: WebviewToExtension) => {
  if (message.type === 'send' || message.type.startsWith('answer')) stick = true;
  vscode.postMessage(message);
};
const composer = new Composer(app, post, () => persist(false));

const saved = vscode.getState() ?? {};
const state: PersistedState = {
  entries: [],
  draft: saved.draft ?? '',
  busy: saved.busy ?? false,
  todos: saved.todos ?? [],
  cost: saved.cost,
  context: saved.context,
  mode: saved.mode ?? 'normal',
  thinkingLevel: saved.thinkingLevel ?? 'off',
  drafts: saved.drafts ?? {},
  toggled: saved.toggled ?? [],
};
const nodes = new Map<string, HTMLElement>();

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

function upsert(entry: ChatEntry): void {
  const index = state.entries.findIndex((e) => e.id === entry.id);
  const el = renderEntry(entry, ctx);
  const old = nodes.get(entry.id);
  if (index >= 0 && old) {
    state.entries[index] = entry;
    const hadFocus = old.contains(document.activeElement);
    resizes.unobserve(old);
    old.replaceWith(el);
    // An answered card loses its buttons: keyboard users continue in the input.
    if (hadFocus) composer.focus();
  } else {
    state.entries.push(entry);
    transcript.append(el);
  }
  nodes.set(entry.id, el);
  resizes.observe(el);
}

function remove(id: string): void {
  state.entries = state.entries.filter((e) => e.id !== id);
  const el = nodes.get(id);
  if (el) {
    resizes.unobserve(el);
    el.remove();
  }
  nodes.delete(id);
}

function reset(entries: ChatEntry[]): void {
  state.entries = [];
  for (const el of nodes.values()) resizes.unobserve(el);
  nodes.clear();
  transcript.replaceChildren();
  entries.forEach(upsert);
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

function atBottom(): boolean {
  return transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 40;
}
let lastTop = 0;
transcript.addEventListener(
  'scroll',
  () => {
    // Only scrolling up lets go of the end: content that grows after a scroll to the end
    // (a web component rendering its buttons) must not.
    const top = transcript.scrollTop;
    if (top < lastTop - 2) stick = atBottom();
    else if (atBottom()) stick = true;
    lastTop = top;
  },
  { passive: true },
);
// Entries grow after they are added (web components render, cards fold open) and the transcript
// shrinks when the todo list or the input grows: either way, keep the end in view.
const resizes = new ResizeObserver(() => {
  if (stick) transcript.scrollTop = transcript.scrollHeight;
});
resizes.observe(transcript);

function persist(scroll: boolean): void {
  empty.hidden = state.entries.length > 0;
  state.draft = composer.value;
  // Drafts of cards that are no longer waiting for an answer are dropped.
  const pending = new Set(state.entries.filter((e) => 'state' in e && e.state === 'pending').map((e) => e.id));
  for (const key of Object.keys(state.drafts)) if (!pending.has(key.split(':')[0]!)) delete state.drafts[key];
  vscode.setState(state);
  if (scroll && stick) transcript.scrollTop = transcript.scrollHeight;
}

function apply(message: ExtensionToWebview): void {
  switch (message.type) {
    case 'snapshot':
      reset(message.entries);
      setBusy(message.busy);
      state.todos = message.todos;
      state.cost = message.cost;
      state.context = message.context;
      state.mode = message.mode;
      state.thinkingLevel = message.thinkingLevel;
      composer.setAgentState(state.mode, state.thinkingLevel);
      showTodos();
      showCost();
      showContext();
      persist(true);
      return;
    case 'upsert':
      upsert(message.entry);
      break;
    case 'remove':
      remove(message.id);
      break;
    case 'textDelta': {
      const entry = state.entries.find((e) => e.id === message.id);
      if (entry?.kind !== 'assistant' && entry?.kind !== 'thinking') return;
      entry.text += message.delta;
      const el = nodes.get(entry.id);
      if (el) updateText(el, entry);
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
    case 'agentState':
      state.mode = message.mode;
      state.thinkingLevel = message.thinkingLevel;
      composer.setAgentState(message.mode, message.thinkingLevel);
      break;
    case 'completions':
      composer.showCompletions(message.text, message.items);
      return;
  }
  persist(true);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = ExtensionToWebviewSchema.safeParse(event.data);
  if (parsed.success) apply(parsed.data);
  else console.warn('OpenDev: dropped an invalid message from the extension', parsed.error.issues[0]);
});
document.getElementById('composer')!.addEventListener('submit', (event) => event.preventDefault());

// Repaint from the saved copy at once; the extension's snapshot follows and wins.
reset(saved.entries ?? []);
composer.value = state.draft;
setBusy(state.busy);
composer.setAgentState(state.mode, state.thinkingLevel);
showTodos();
showCost();
showContext();
persist(true);
post({ type: 'ready' });
