import * as l10n from '@vscode/l10n';
import type { AgentModeView, MentionCompletion, SlashCompletion, ThinkingLevelView, WebviewToExtension } from '../src/shared/protocol';
import { insertMention, mentionAt } from '../src/shared/mention-syntax';
import { Attachments } from './attachments';
import { SuggestionList } from './suggestion-list';

interface TextArea extends HTMLElement {
  value: string;
  placeholder: string;
  /** The inner textarea's accessible name (a property only: the attribute is not read). */
  label: string;
  wrappedElement?: HTMLTextAreaElement;
}

/** What the suggestion list shows: slash commands for the whole input, or paths for the `@` at `start`. */
type Suggesting = { kind: 'slash'; items: SlashCompletion[] } | { kind: 'mention'; start: number; items: MentionCompletion[] };

const IDLE_PLACEHOLDER = l10n.t('Ask OpenDev… (Enter to send, Shift+Enter for a new line, / for commands, @ for files)');
/** Switch Mode's key (package.json: alt+m while the input has the focus), as this platform writes it. */
const SWITCH_MODE_KEY = /Mac/.test(navigator.platform) ? '⌥M' : 'Alt+M';
const BUSY_PLACEHOLDER = l10n.t('OpenDev is working. Type a follow-up and press Enter to queue it.');

/**
 * The input area: the text box with suggestions, attached images, Send/Stop, and the mode chip.
 * Suggestions come from the extension: slash commands (the shared registry's completion) for a
 * bare `/word` or `/command arg`, and files, folders and sources for the `@word` at the caret;
 * ↑/↓ (or Tab/Shift+Tab) move, Enter or Tab pick, Escape closes. Without a list Shift+Tab is the
 * browser's: the focus moves backwards out of the input (keyboard users must be able to leave it).
 * Alt+M and Escape are left to the workbench keybindings (Switch Mode, Stop), which VS Code
 * receives from the webview; this reports the focus for their context keys.
 */
export class Composer {
  private readonly input: TextArea;
  private readonly send: HTMLElement;
  private readonly stop: HTMLElement;
  private readonly modeChip: HTMLButtonElement;
  private readonly suggestions: SuggestionList;
  private suggesting: Suggesting | undefined;
  private readonly attachments: Attachments;
  private focused = false;
  private viewFocused = document.hasFocus();
  private reported = '';
  private busy = false;

  constructor(
    root: HTMLElement,
    private readonly post: (message: WebviewToExtension) => void,
    private readonly onDraft: () => void,
  ) {
    this.input = root.querySelector<TextArea>('#input')!;
    // The focused element is the textarea inside the web component: it must carry the name too.
    this.input.label = this.input.getAttribute('aria-label') ?? l10n.t('Ask OpenDev');
    this.send = root.querySelector<HTMLElement>('#send')!;
    this.stop = root.querySelector<HTMLElement>('#stop')!;
    this.modeChip = root.querySelector<HTMLButtonElement>('#mode')!;
    this.suggestions = new SuggestionList(root.querySelector<HTMLElement>('#suggestions')!, this.input, (i) => this.accept(i));
    this.attachments = new Attachments(root.querySelector<HTMLElement>('#composer')!, () => this.onDraft());

    this.input.addEventListener('keydown', (e) => this.onKeyDown(e));
    this.input.addEventListener('input', () => {
      this.requestCompletions();
      this.onDraft();
    });
    this.input.addEventListener('focusin', () => this.setFocused(true));
    this.input.addEventListener('focusout', () => {
      this.setFocused(false);
      this.close();
    });
    window.addEventListener('focus', () => this.setViewFocused(true));
    window.addEventListener('blur', () => this.setViewFocused(false));
    this.send.addEventListener('click', () => this.submit());
    this.stop.addEventListener('click', () => this.post({ type: 'stop' }));
    this.modeChip.addEventListener('click', () => this.post({ type: 'switchMode' }));
  }

  get value(): string {
    return this.input.value ?? '';
  }

  set value(text: string) {
    this.input.value = text;
  }

  focus(): void {
    this.input.focus();
  }

  /** Appends `text` on a line of its own and leaves the caret after it (Add Selection to Chat). */
  append(text: string): void {
    const current = this.value.replace(/\s+$/, '');
    this.value = `${current ? `${current}\n\n` : ''}${text}\n`;
    this.focus();
    const inner = (this.input as TextArea & { wrappedElement?: HTMLTextAreaElement }).wrappedElement;
    inner?.setSelectionRange(this.value.length, this.value.length);
    this.onDraft();
  }

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.stop.hidden = !busy;
    this.send.hidden = busy;
    this.input.placeholder = busy ? BUSY_PLACEHOLDER : IDLE_PLACEHOLDER;
  }

  setAgentState(mode: AgentModeView, thinkingLevel: ThinkingLevelView): void {
    const plan = mode === 'plan';
    this.modeChip.textContent = plan ? l10n.t('Plan mode') : l10n.t('Normal mode');
    this.modeChip.dataset.mode = mode;
    this.modeChip.title = plan
      ? l10n.t('Plan mode: OpenDev explores read-only and proposes a plan before changing anything. Click or press {0} to switch.', SWITCH_MODE_KEY)
      : l10n.t('Normal mode: OpenDev reads, edits and runs commands (with your approval). Click or press {0} to switch.', SWITCH_MODE_KEY);
    this.modeChip.setAttribute('aria-label', plan ? l10n.t('Mode: plan. Activate or press {0} to switch.', SWITCH_MODE_KEY) : l10n.t('Mode: normal. Activate or press {0} to switch.', SWITCH_MODE_KEY));
    this.modeChip.setAttribute('aria-keyshortcuts', 'Alt+M');
    document.body.dataset.mode = mode;
    const thinking = document.getElementById('thinking-level');
    if (thinking) {
      thinking.textContent = thinkingLevel === 'off' ? l10n.t('Thinking off') : l10n.t('Thinking: {0}', thinkingLevel);
      thinking.title = l10n.t('How much OpenDev reasons before acting (setting opendev.thinkingLevel, or /thinking).');
    }
  }

  /** The extension's completions for `text`; ignored when the input has moved on since. */
  showCompletions(text: string, items: SlashCompletion[]): void {
    if (text !== this.value || !this.focused || items.length === 0) {
      if (text === this.value) this.close();
      return;
    }
    this.suggesting = { kind: 'slash', items };
    this.suggestions.show(
      items.map((item) => ({ label: item.name, ...(item.hint ? { hint: item.hint } : {}), description: item.description })),
      l10n.t('Slash commands'),
    );
    this.report();
  }

  /** The extension's `@` completions for `query`; ignored unless the caret is still in that mention. */
  showMentionCompletions(query: string, items: MentionCompletion[]): void {
    const typed = mentionAt(this.value, this.caret);
    if (!typed || typed.query !== query || !this.focused) return;
    if (items.length === 0) {
      this.close();
      return;
    }
    this.suggesting = { kind: 'mention', start: typed.start, items };
    this.suggestions.show(
      items.map((item) => {
        // A folder reads as one (`src/`); the special sources say what they attach.
        const description = item.detail ?? (item.kind === 'folder' ? l10n.t('folder') : undefined);
        return { label: item.kind === 'folder' ? `${item.target}/` : item.target, kind: item.kind, ...(description ? { description } : {}) };
      }),
      l10n.t('Files, folders and sources to mention'),
    );
    this.report();
  }

  private get open(): boolean {
    return this.suggestions.open;
  }

  /** Where the caret is in the input (its end when the inner textarea is not there yet). */
  private get caret(): number {
    return this.input.wrappedElement?.selectionStart ?? this.value.length;
  }

  private submit(): void {
    const text = this.value.trim();
    if (!text) {
      if (this.attachments.count > 0) this.attachments.say(l10n.t('Type a message to send with the image.'));
      return;
    }
    const images = this.attachments.take();
    this.post({ type: 'send', text, ...(images.length > 0 ? { images } : {}) });
    this.value = '';
    this.close();
    this.onDraft();
  }

  private onKeyDown(e: KeyboardEvent): void {
    if (e.isComposing) return;
    if (this.open) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        this.suggestions.move(e.key === 'ArrowDown' ? 1 : -1);
        return;
      }
      if (e.key === 'Tab' && !e.shiftKey) {
        e.preventDefault();
        this.accept(this.suggestions.selected);
        return;
      }
      if (e.key === 'Tab' && e.shiftKey) {
        // Inside an open list Shift+Tab goes back up it; focus leaves once the list is closed.
        e.preventDefault();
        this.suggestions.move(-1);
        return;
      }
      if (e.key === 'Enter' && !e.shiftKey) {
        // A command typed in full is sent; otherwise Enter picks the highlighted suggestion.
        const current = this.suggesting;
        const typedInFull = current?.kind === 'slash' && current.items[this.suggestions.selected]?.name === this.value.trim();
        if (!typedInFull) {
          e.preventDefault();
          this.accept(this.suggestions.selected);
          return;
        }
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation(); // the list closes; Escape does not also reach Stop
        this.close();
        return;
      }
    }
    if (e.altKey && !e.ctrlKey && !e.metaKey && e.code === 'KeyM') {
      // Switch Mode: the workbench's Alt+M keybinding runs it. Not typed: on a Mac ⌥M is "µ".
      e.preventDefault();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      this.submit();
    }
  }

  private accept(index: number): void {
    const current = this.suggesting;
    if (current?.kind === 'mention') {
      const item = current.items[index];
      if (!item) return;
      const next = insertMention(this.value, current.start, item.target);
      this.value = next.text;
      this.close();
      this.focus();
      this.input.wrappedElement?.setSelectionRange(next.caret, next.caret);
      this.onDraft();
      return;
    }
    const item = current?.items[index];
    if (!item) return;
    this.value = `${item.name} `;
    this.close();
    this.focus();
    this.onDraft();
    this.requestCompletions(); // `/thinking ` goes on to suggest the levels
  }

  /** Completion applies to the `@word` at the caret, or to a bare `/word` or `/command arg` on one line. */
  private requestCompletions(): void {
    const text = this.value;
    const mention = this.focused ? mentionAt(text, this.caret) : undefined;
    if (mention) this.post({ type: 'completeMention', query: mention.query });
    else if (/^\/(?!\/)[^\s]*( [^\s]*)?$/.test(text) && this.focused) this.post({ type: 'complete', text });
    else this.close();
  }

  private close(): void {
    if (!this.open) return;
    this.suggesting = undefined;
    this.suggestions.close();
    this.report();
  }

  private setFocused(focused: boolean): void {
    this.focused = focused;
    if (focused) this.viewFocused = true;
    this.report();
  }

  private setViewFocused(focused: boolean): void {
    this.viewFocused = focused;
    this.report();
  }

  /** Tells the extension about focus and the suggestion list (context keys for Escape and Shift+Tab). */
  private report(): void {
    const state = { viewFocused: this.viewFocused, inputFocused: this.focused, suggesting: this.open };
    const key = JSON.stringify(state);
    if (key === this.reported) return;
    this.reported = key;
    this.post({ type: 'inputState', ...state });
  }

  get isBusy(): boolean {
    return this.busy;
  }
}
