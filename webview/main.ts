import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textarea/index.js';
import { ExtensionToWebviewSchema, type ChatEntry, type ExtensionToWebview } from '../src/shared/protocol';
import { renderMarkdown } from './markdown';
import { vscode } from './vscode-api';

/**
 * The chat panel. The extension owns the transcript; this renders it, sends what the user
 * types, and keeps a copy in the webview state so a hidden/reloaded view repaints at once.
 */

interface TextArea extends HTMLElement {
  value: string;
}

const app = document.getElementById('app')!;
app.innerHTML = `
  <p id="empty">Ask OpenDev about your code, or give it a task.</p>
  <section id="transcript" role="log" aria-live="polite" aria-label="Conversation"></section>
  <form id="composer">
    <vscode-textarea id="input" aria-label="Ask OpenDev" placeholder="Ask OpenDev… (Enter to send, Shift+Enter for a new line)" rows="3" resize="vertical"></vscode-textarea>
    <div class="actions">
      <vscode-button id="send" aria-label="Send">Send</vscode-button>
      <vscode-button id="stop" aria-label="Stop" secondary hidden>Stop</vscode-button>
    </div>
  </form>`;

const transcript = document.getElementById('transcript')!;
const empty = document.getElementById('empty')!;
const input = document.getElementById('input') as TextArea;
const sendButton = document.getElementById('send')!;
const stopButton = document.getElementById('stop')!;

let entries: ChatEntry[] = [];
const nodes = new Map<string, HTMLElement>();

function render(entry: ChatEntry): HTMLElement {
  const el = document.createElement('article');
  el.className = `entry ${entry.kind}`;
  el.dataset.id = entry.id;
  switch (entry.kind) {
    case 'user':
      el.textContent = entry.text;
      break;
    case 'assistant':
      renderMarkdown(el, entry.text);
      break;
    case 'tool': {
      el.dataset.status = entry.status;
      const head = document.createElement('div');
      head.className = 'tool-head';
      head.textContent = entry.name;
      const detail = document.createElement('div');
      detail.className = 'tool-detail';
      // The summary carries its own ✓/✗; while running, the arguments say what is happening.
      detail.textContent = entry.summary ?? `⋯ ${entry.args}`;
      el.append(head, detail);
      break;
    }
    case 'error': {
      el.setAttribute('role', 'alert');
      const text = document.createElement('p');
      text.textContent = entry.text;
      el.append(text);
      if (entry.action) {
        const button = document.createElement('vscode-button');
        button.textContent = entry.action === 'setApiKey' ? 'Set API Key' : 'Open Settings';
        button.addEventListener('click', () => vscode.postMessage({ type: 'action', action: entry.action! }));
        el.append(button);
      }
      break;
    }
    case 'notice':
      el.textContent = entry.text;
      break;
  }
  return el;
}

function upsert(entry: ChatEntry): void {
  const index = entries.findIndex((e) => e.id === entry.id);
  const el = render(entry);
  const old = nodes.get(entry.id);
  if (index >= 0 && old) {
    entries[index] = entry;
    old.replaceWith(el);
  } else {
    entries.push(entry);
    transcript.append(el);
  }
  nodes.set(entry.id, el);
}

function reset(next: ChatEntry[]): void {
  entries = [];
  nodes.clear();
  transcript.replaceChildren();
  next.forEach(upsert);
}

function setBusy(busy: boolean): void {
  stopButton.hidden = !busy;
  sendButton.hidden = busy;
  document.body.classList.toggle('busy', busy);
}

function persist(): void {
  empty.hidden = entries.length > 0;
  vscode.setState({ entries, draft: input.value ?? '' });
  transcript.lastElementChild?.scrollIntoView({ block: 'end' });
}

function apply(message: ExtensionToWebview): void {
  switch (message.type) {
    case 'snapshot':
      reset(message.entries);
      setBusy(message.busy);
      break;
    case 'upsert':
      upsert(message.entry);
      break;
    case 'textDelta': {
      const entry = entries.find((e) => e.id === message.id);
      if (entry?.kind !== 'assistant') return;
      entry.text += message.delta;
      const el = nodes.get(entry.id);
      if (el) renderMarkdown(el, entry.text);
      break;
    }
    case 'busy':
      setBusy(message.busy);
      break;
  }
  persist();
}

function send(): void {
  const text = (input.value ?? '').trim();
  if (!text) return;
  vscode.postMessage({ type: 'send', text });
  input.value = '';
  persist();
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = ExtensionToWebviewSchema.safeParse(event.data);
  if (parsed.success) apply(parsed.data);
  else console.warn('OpenDev: dropped an invalid message from the extension', parsed.error.issues[0]);
});

input.addEventListener('keydown', (event: KeyboardEvent) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    send();
  }
});
input.addEventListener('input', () => persist());
sendButton.addEventListener('click', send);
stopButton.addEventListener('click', () => vscode.postMessage({ type: 'stop' }));
document.getElementById('composer')!.addEventListener('submit', (event) => {
  event.preventDefault();
  send();
});

const saved = vscode.getState();
if (saved) {
  reset(saved.entries);
  input.value = saved.draft;
}
empty.hidden = entries.length > 0;
vscode.postMessage({ type: 'ready' });
