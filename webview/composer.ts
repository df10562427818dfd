import type { AgentModeView, SlashCompletion, ThinkingLevelView, WebviewToExtension } from '../src/shared/protocol';
import { h } from './dom';

interface TextArea extends HTMLElement {
  value: string;
  placeholder: string;
}

const IDLE_PLACEHOLDER = 'Ask OpenDev… (Enter to send, Shift+Enter for a new line, / for commands)';
const BUSY_PLACEHOLDER = 'OpenDev is working. Type a follow-up and press Enter to queue it.';

/**
 * The input area: the text box with slash-command suggestions, Send/Stop, and the mode chip.
 * Suggestions come from the extension (the shared registry's completion) for a bare `/word` or
 * `/command arg`; ↑/↓ move, Enter or Tab pick, Escape closes. Shift+Tab and Escape are left to
 * the workbench keybindings (Switch Mode, Stop), which VS Code receives from the webview; this
 * reports the focus for their context keys.
 */
export class Composer {
  private readonly input: TextArea;
  private readonly send: HTMLElement;
  private readonly stop: HTMLElement;
  private readonly modeChip: HTMLButtonElement;
  private readonly list: HTMLElement;
  private items: SlashCompletion[] = [];
  private selected = 0;
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
    this.send = root.querySelector<HTMLElement>('#send')!;
    this.stop = root.querySelector<HTMLElement>('#stop')!;
    this.modeChip = root.querySelector<HTMLButtonElement>('#mode')!;
    this.list = root.querySelector<HTMLElement>('#suggestions')!;

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

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.stop.hidden = !busy;
    this.send.hidden = busy;
    this.input.placeholder = busy ? BUSY_PLACEHOLDER : IDLE_PLACEHOLDER;
  }

  setAgentState(mode: AgentModeView, thinkingLevel: ThinkingLevelView): void {
    const plan = mode === 'plan';
    this.modeChip.textContent = plan ? 'Plan mode' : 'Normal mode';
    this.modeChip.dataset.mode = mode;
    this.modeChip.title = `${plan ? 'Plan mode: OpenDev explores read-only and proposes a plan before changing anything.' : 'Normal mode: OpenDev reads, edits and runs commands (with your approval).'} Click or press Shift+Tab to switch.`;
    this.modeChip.setAttribute('aria-label', `Mode: ${mode}. Activate to switch.`);
    document.body.dataset.mode = mode;
    const thinking = document.getElementById('thinking-level');
    if (thinking) {
      thinking.textContent = thinkingLevel === 'off' ? 'Thinking off' : `Thinking: ${thinkingLevel}`;
      thinking.title = 'How much OpenDev reasons before acting (setting opendev.thinkingLevel, or /thinking).';
    }
  }

  /** The extension's completions for `text`; ignored when the input has moved on since. */
  showCompletions(text: string, items: SlashCompletion[]): void {
    if (text !== this.value || !this.focused || items.length === 0) {
      if (text === this.value) this.close();
      return;
    }
    this.items = items;
    this.selected = 0;
    this.renderList();
  }

  private get open(): boolean {
    return this.items.length > 0;
  }

  private submit(): void {
    const text = this.value.trim();
    if (!text) return;
    this.post({ type: 'send', text });
    this.value = '';
    this.close();
    this.onDraft();
  }

  private onKeyDown(e: KeyboardEvent): void {
    if (e.isComposing) return;
    if (this.open) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const n = this.items.length;
        this.selected = (this.selected + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
        this.renderList();
        return;
      }
      if (e.key === 'Tab' && !e.shiftKey) {
        e.preventDefault();
        this.accept(this.selected);
        return;
      }
      if (e.key === 'Enter' && !e.shiftKey) {
        // A command typed in full is sent; otherwise Enter picks the highlighted suggestion.
        const item = this.items[this.selected];
        if (item && item.name !== this.value.trim()) {
          e.preventDefault();
          this.accept(this.selected);
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
    if (e.key === 'Tab' && e.shiftKey) {
      // Switch Mode: the workbench's Shift+Tab keybinding runs it; focus stays in the input.
      e.preventDefault();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      this.submit();
    }
  }

  private accept(index: number): void {
    const item = this.items[index];
    if (!item) return;
    this.value = `${item.name} `;
    this.close();
    this.focus();
    this.onDraft();
    this.requestCompletions(); // `/thinking ` goes on to suggest the levels
  }

  /** Completion applies to a bare `/word` or `/command arg`, on one line. */
  private requestCompletions(): void {
    const text = this.value;
    if (/^\/(?!\/)[^\s]*( [^\s]*)?$/.test(text) && this.focused) this.post({ type: 'complete', text });
    else this.close();
  }

  private renderList(): void {
    this.list.replaceChildren(
      ...this.items.map((item, i) => {
        const option = h(
          'div',
          { class: 'suggestion', attrs: { role: 'option', id: `suggestion-${i}`, 'aria-selected': String(i === this.selected) } },
          h('span', { class: 'suggestion-name', text: item.name }),
          item.description && h('span', { class: 'suggestion-description', text: item.description }),
        );
        // mousedown, not click: the input keeps its focus.
        option.addEventListener('mousedown', (e) => {
          e.preventDefault();
          this.accept(i);
        });
        return option;
      }),
    );
    this.list.hidden = false;
    this.list.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
    this.report();
  }

  private close(): void {
    if (!this.open && this.list.hidden) return;
    this.items = [];
    this.list.hidden = true;
    this.list.replaceChildren();
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
