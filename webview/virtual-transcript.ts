import type { ChatEntry } from '../src/shared/protocol';
import { estimateHeight, firstBelow } from './entry-height';

/**
 * The transcript as a window over its entries: only those near the viewport are in the DOM (at
 * most MAX_RENDERED), the rest stand in as two spacers sized from measured heights (estimated
 * until an entry has been shown once). A 2,000-message session then costs the DOM of a short one,
 * and scrolling stays smooth. The browser's scroll anchoring keeps what is on screen in place while
 * entries above it are rendered or measured; while the user is at the end, new output keeps it there.
 */

/** Pixels rendered beyond each edge of the viewport. */
const OVERSCAN_PX = 900;
/** The most entries in the DOM at once, whatever their heights. */
export const MAX_RENDERED = 120;
/** The gap between entries (media/chat.css, `.transcript-window`). */
const GAP_PX = 8;
/** Closer than this to the end counts as "at the end". */
const END_SLACK_PX = 40;
/** How long a wheel turn, key or scrollbar press up counts as the reason for the next move up. */
const INTENT_MS = 1_000;
/** Keys that scroll a focused container up (Ctrl+Home too). */
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

export interface VirtualTranscriptOptions {
  /** The scroll container. */
  container: HTMLElement;
  /** A new element for an entry (rendered again whenever it enters the window or changes). */
  render(entry: ChatEntry): HTMLElement;
  /** The focused element was inside an entry that was replaced: the caller moves the focus somewhere useful. */
  onFocusLost(): void;
}

/** Where the reader is: an entry and how far its top lies below the top of the view (persisted across reloads). */
export interface ScrollAnchor {
  id: string;
  offset: number;
}

export class VirtualTranscript {
  private entries: ChatEntry[] = [];
  private indexById = new Map<string, number>();
  private readonly heights = new Map<string, number>();
  private readonly nodes = new Map<string, HTMLElement>();
  private readonly list: HTMLElement;
  private readonly topSpacer: HTMLElement;
  private readonly bottomSpacer: HTMLElement;
  private readonly resizes: ResizeObserver;
  private start = 0;
  private end = 0;
  private frame = 0;
  private lastTop = 0;
  /** Follow new output: true while the user is at the end, false once they scroll up to read. */
  private stick = true;
  /** When the user last asked to scroll up: any step up in the next INTENT_MS lets go of the end (an animated scroll starts with a pixel or two). */
  private upIntentAt = -Infinity;

  constructor(private readonly options: VirtualTranscriptOptions) {
    const { container } = options;
    this.topSpacer = spacer();
    this.bottomSpacer = spacer();
    this.list = document.createElement('div');
    this.list.className = 'transcript-window';
    container.replaceChildren(this.topSpacer, this.list, this.bottomSpacer);
    container.addEventListener('scroll', () => this.scrolled(), { passive: true });
    const intendUp = () => (this.upIntentAt = performance.now());
    container.addEventListener('wheel', (e) => e.deltaY < 0 && intendUp(), { passive: true });
    container.addEventListener('keydown', (e) => UP_KEYS.has(e.key) && !editable(e.target) && intendUp());
    // The scrollbar belongs to the container itself: a press on an entry is not a scroll.
    container.addEventListener('pointerdown', (e) => e.target === container && intendUp());
    this.resizes = new ResizeObserver((records) => this.resized(records));
    this.resizes.observe(container);
  }

  get all(): readonly ChatEntry[] {
    return this.entries;
  }

  get(id: string): ChatEntry | undefined {
    const index = this.indexById.get(id);
    return index === undefined ? undefined : this.entries[index];
  }

  /** The element showing an entry, when it is in the window. */
  node(id: string): HTMLElement | undefined {
    return this.nodes.get(id);
  }

  get renderedCount(): number {
    return this.nodes.size;
  }

  /** Whether new output keeps the end in view. */
  get following(): boolean {
    return this.stick;
  }

  /** Replaces every entry (a snapshot): the window is rebuilt at the end; heights already measured are kept. */
  reset(entries: readonly ChatEntry[]): void {
    this.stick = true;
    for (const node of this.nodes.values()) this.resizes.unobserve(node);
    this.nodes.clear();
    this.list.replaceChildren();
    this.entries = [...entries];
    this.reindex();
    const ids = new Set(this.entries.map((e) => e.id));
    for (const id of [...this.heights.keys()]) if (!ids.has(id)) this.heights.delete(id);
    this.start = 0;
    this.end = 0;
    this.lastTop = this.options.container.scrollTop; // wherever emptying the list put it: no one scrolled
    this.layoutNow();
  }

  /** Adds an entry at the end, or replaces the one with the same id in place. */
  upsert(entry: ChatEntry): void {
    const index = this.indexById.get(entry.id);
    if (index === undefined) {
      this.indexById.set(entry.id, this.entries.length);
      this.entries.push(entry);
    } else {
      this.entries[index] = entry;
      const old = this.nodes.get(entry.id);
      if (old) {
        const focused = old.contains(document.activeElement) ? document.activeElement : undefined;
        const fresh = this.renderNode(entry);
        this.swap(old, fresh);
        // A card redrawn under the keyboard (a change decided in it): the focus stays on the same control.
        if (focused && !refocus(fresh, focused)) this.options.onFocusLost();
      }
    }
    this.schedule();
  }

  remove(id: string): void {
    const index = this.indexById.get(id);
    if (index === undefined) return;
    this.entries.splice(index, 1);
    this.reindex();
    this.heights.delete(id);
    const node = this.nodes.get(id);
    if (node) this.drop(id, node);
    this.schedule();
  }

  /** An entry changed in place (streamed text): `update` patches its element if it is in the window. */
  patch(id: string, update: (node: HTMLElement) => void): void {
    const node = this.nodes.get(id);
    if (node) update(node);
  }

  /** Back to the end, following new output (the user sent a message or answered a card). */
  stickToEnd(): void {
    this.stick = true;
    this.schedule();
  }

  /** Where the reader is, or undefined at the end (which is where a reload starts anyway). */
  anchor(): ScrollAnchor | undefined {
    if (this.stick) return undefined;
    const top = this.options.container.getBoundingClientRect().top;
    for (let i = this.start; i < this.end; i++) {
      const node = this.nodes.get(this.entries[i]!.id);
      const rect = node?.getBoundingClientRect();
      if (rect && rect.bottom > top) return { id: this.entries[i]!.id, offset: Math.round(rect.top - top) };
    }
    return undefined;
  }

  /** Scrolls back to where the reader was (a reloaded view); false when that entry is gone. */
  restore(anchor: ScrollAnchor): boolean {
    const index = this.indexById.get(anchor.id);
    if (index === undefined) return false;
    this.stick = false;
    const container = this.options.container;
    container.scrollTop = Math.max(0, this.offsets()[index]! - anchor.offset);
    this.lastTop = container.scrollTop;
    this.layoutNow();
    // The entry is rendered and measured now: put it exactly where it was.
    const node = this.nodes.get(anchor.id);
    if (node) container.scrollTop += node.getBoundingClientRect().top - container.getBoundingClientRect().top - anchor.offset;
    this.lastTop = container.scrollTop;
    this.layoutNow();
    return true;
  }

  private scrolled(): void {
    this.followScroll();
    this.schedule();
  }

  /**
   * Takes in where the user has scrolled. Called before anything moves the view to the end too:
   * a scroll's event comes a frame after the move, and snapping back in between would cancel it.
   */
  private followScroll(): void {
    const c = this.options.container;
    if (c.clientHeight === 0) return; // hidden: it reads as scrolled to the top, which nobody did
    const top = c.scrollTop;
    // Only scrolling up lets go of the end: content that grows after a scroll to the end must not,
    // nor content that shrinks while the user stays at the end.
    if (top < this.lastTop && performance.now() - this.upIntentAt < INTENT_MS) this.stick = false;
    else if (top < this.lastTop - 2) this.stick = this.atEnd(); // sub-pixel layout jitter is no scroll
    else if (top > this.lastTop && this.atEnd()) this.stick = true;
    this.lastTop = top;
  }

  private atEnd(): boolean {
    const c = this.options.container;
    return c.scrollHeight - c.scrollTop - c.clientHeight < END_SLACK_PX;
  }

  /** Entries grow after they are shown (web components, cards folding open, streamed text) and the view resizes. */
  private resized(records: ResizeObserverEntry[]): void {
    this.followScroll();
    for (const record of records) {
      const id = (record.target as HTMLElement).dataset.id;
      if (id && this.nodes.get(id) === record.target) this.heights.set(id, (record.target as HTMLElement).offsetHeight);
    }
    if (this.stick) this.toEnd();
    this.schedule();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.layout();
    });
  }

  private layoutNow(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.layout();
  }

  /** Renders the entries the viewport needs, sizes the spacers, and measures what it rendered. */
  private layout(): void {
    this.followScroll();
    for (let pass = 0; pass < 3; pass++) {
      const [start, end] = this.range(this.offsets());
      this.render(start, end);
      if (!this.measure()) break; // heights as estimated: the range stands
    }
    if (this.stick) this.toEnd();
  }

  /** `offsets[i]`: the top of entry i; `offsets[n]`: the end of the last one plus a gap. */
  private offsets(): Float64Array {
    const tops = new Float64Array(this.entries.length + 1);
    for (let i = 0; i < this.entries.length; i++) tops[i + 1] = tops[i]! + this.heightOf(this.entries[i]!) + GAP_PX;
    return tops;
  }

  private range(tops: Float64Array): [number, number] {
    const n = this.entries.length;
    const c = this.options.container;
    const viewport = c.clientHeight;
    if (this.stick) {
      // The end is in view: render back from the entry the window's top falls in (one taller than
      // the window starts above it, and must be rendered all the same).
      const from = Math.max(0, firstBelow(tops, tops[n]! - viewport - OVERSCAN_PX) - 1);
      return [Math.max(from, n - MAX_RENDERED), n];
    }
    const top = c.scrollTop;
    let start = Math.max(0, firstBelow(tops, top - OVERSCAN_PX) - 1);
    let end = Math.min(n, firstBelow(tops, top + viewport + OVERSCAN_PX) + 1);
    if (end - start > MAX_RENDERED) {
      // Centre the allowance on what is on screen.
      const visible = firstBelow(tops, top) - 1;
      start = Math.max(0, Math.min(visible - Math.floor(MAX_RENDERED / 4), n - MAX_RENDERED));
      end = Math.min(n, start + MAX_RENDERED);
    }
    return [start, end];
  }

  /** Puts entries [start, end) in the DOM, in order, reusing the elements already there. */
  private render(start: number, end: number): void {
    const keep = new Set<string>();
    for (let i = start; i < end; i++) keep.add(this.entries[i]!.id);
    for (const [id, node] of this.nodes) if (!keep.has(id)) this.drop(id, node);
    let cursor: ChildNode | null = this.list.firstChild;
    for (let i = start; i < end; i++) {
      const entry = this.entries[i]!;
      let node = this.nodes.get(entry.id);
      if (!node) node = this.renderNode(entry);
      if (cursor === node) cursor = node.nextSibling;
      else this.list.insertBefore(node, cursor);
    }
    this.start = start;
    this.end = end;
    this.sizeSpacers();
  }

  /** Reads the rendered entries' heights; true when one differs from what the layout assumed. */
  private measure(): boolean {
    let changed = false;
    for (let i = this.start; i < this.end; i++) {
      const id = this.entries[i]!.id;
      const height = this.nodes.get(id)?.offsetHeight;
      if (height === undefined || height === 0) continue; // hidden view: nothing to learn
      if (this.heights.get(id) !== height) changed = true;
      this.heights.set(id, height);
    }
    if (changed) this.sizeSpacers();
    return changed;
  }

  private sizeSpacers(): void {
    const tops = this.offsets();
    this.topSpacer.style.height = `${tops[this.start]!}px`;
    this.bottomSpacer.style.height = `${tops[this.entries.length]! - tops[this.end]!}px`;
  }

  private renderNode(entry: ChatEntry): HTMLElement {
    const node = this.options.render(entry);
    node.dataset.id = entry.id;
    this.nodes.set(entry.id, node);
    this.resizes.observe(node);
    return node;
  }

  private swap(old: HTMLElement, node: HTMLElement): void {
    this.resizes.unobserve(old);
    old.replaceWith(node);
  }

  private drop(id: string, node: HTMLElement): void {
    this.resizes.unobserve(node);
    node.remove();
    this.nodes.delete(id);
  }

  private toEnd(): void {
    const c = this.options.container;
    c.scrollTop = c.scrollHeight;
    this.lastTop = c.scrollTop;
  }

  private reindex(): void {
    this.indexById = new Map(this.entries.map((e, i) => [e.id, i]));
  }

  private heightOf(entry: ChatEntry): number {
    return this.heights.get(entry.id) ?? estimateHeight(entry, this.options.container.clientWidth);
  }
}

/** Keys typed in a field edit it: they do not scroll the transcript. */
function editable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select, vscode-textarea, vscode-textfield') !== null);
}

function spacer(): HTMLElement {
  const el = document.createElement('div');
  el.className = 'transcript-spacer';
  el.setAttribute('aria-hidden', 'true');
  return el;
}

/** Focuses the control in `fresh` that stands where `was` stood (same action and label); false when there is none. */
function refocus(fresh: HTMLElement, was: Element): boolean {
  const action = was.getAttribute('data-action');
  if (!action) return false;
  const label = was.getAttribute('aria-label');
  const twin = [...fresh.querySelectorAll<HTMLElement>(`[data-action="${CSS.escape(action)}"]`)].find((el) => el.getAttribute('aria-label') === label);
  if (!twin) return false;
  twin.focus();
  return true;
}
