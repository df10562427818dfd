import { h } from './dom';

/** One row of the suggestion list: what is shown and what a screen reader hears. */
export interface Suggestion {
  label: string;
  /** After the label, dimmed (a command's arguments). */
  hint?: string;
  description?: string;
  /** What it is (file, folder…), said to screen readers after the label. */
  kind?: string;
}

interface InputHost extends HTMLElement {
  wrappedElement?: HTMLTextAreaElement;
}

/**
 * The popup list of suggestions above the chat input (slash commands, `@` mentions), as an ARIA
 * listbox the input controls: the input keeps the focus, `aria-activedescendant` names the
 * highlighted option (also as element reflection on the textarea inside the web component, which
 * an id cannot reach across its shadow root). Rows are picked with the mouse without taking focus.
 */
export class SuggestionList {
  private items: Suggestion[] = [];
  private selectedIndex = 0;

  constructor(
    private readonly list: HTMLElement,
    private readonly input: InputHost,
    private readonly onPick: (index: number) => void,
  ) {
    list.setAttribute('role', 'listbox');
    input.setAttribute('aria-controls', list.id);
    input.setAttribute('aria-autocomplete', 'list');
  }

  get open(): boolean {
    return this.items.length > 0;
  }

  get selected(): number {
    return this.selectedIndex;
  }

  show(items: Suggestion[], label: string): void {
    this.items = items;
    this.selectedIndex = 0;
    this.list.setAttribute('aria-label', label);
    this.render();
  }

  /** ↑ / ↓ with wrap-around. */
  move(delta: 1 | -1): void {
    const n = this.items.length;
    if (n === 0) return;
    this.selectedIndex = (this.selectedIndex + delta + n) % n;
    this.render();
  }

  close(): void {
    this.items = [];
    this.list.hidden = true;
    this.list.replaceChildren();
    this.setActive(undefined);
  }

  private render(): void {
    this.list.replaceChildren(
      ...this.items.map((item, i) => {
        const option = h(
          'div',
          {
            class: 'suggestion',
            attrs: { role: 'option', id: `suggestion-${i}`, 'aria-selected': String(i === this.selectedIndex), 'aria-label': spoken(item), 'data-kind': item.kind, title: item.description },
          },
          h('span', { class: 'suggestion-name', text: item.label }),
          item.hint && h('span', { class: 'suggestion-hint', text: item.hint }),
          item.description && h('span', { class: 'suggestion-description', text: item.description }),
        );
        // mousedown, not click: the input keeps its focus.
        option.addEventListener('mousedown', (e) => {
          e.preventDefault();
          this.onPick(i);
        });
        return option;
      }),
    );
    this.list.hidden = false;
    const active = this.list.querySelector<HTMLElement>('[aria-selected="true"]');
    active?.scrollIntoView({ block: 'nearest' });
    this.setActive(active ?? undefined);
  }

  private setActive(option: HTMLElement | undefined): void {
    if (option) this.input.setAttribute('aria-activedescendant', option.id);
    else this.input.removeAttribute('aria-activedescendant');
    const inner = this.input.wrappedElement as (HTMLTextAreaElement & { ariaActiveDescendantElement?: Element | null }) | undefined;
    if (inner && 'ariaActiveDescendantElement' in inner) inner.ariaActiveDescendantElement = option ?? null;
    inner?.setAttribute('aria-autocomplete', 'list');
  }
}

function spoken(item: Suggestion): string {
  return [item.kind ? `${item.label}, ${item.kind}` : item.label, item.hint, item.description].filter(Boolean).join(', ');
}
