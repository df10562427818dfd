import type { ChatEntry, ExtensionToWebview } from '../shared/protocol';

/**
 * The chat's entries and the channel to the view: every change to an entry is mirrored to the
 * listeners as a protocol message, so the webview only ever renders what it is sent.
 */
export class Transcript {
  private entries: ChatEntry[] = [];
  private nextId = 0;
  private readonly listeners = new Set<(message: ExtensionToWebview) => void>();

  list(): readonly ChatEntry[] {
    return this.entries;
  }

  find(id: string): ChatEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  /** A fresh entry id (`e1`, `e2`, …), unique for the life of the controller. */
  newId(): string {
    return `e${++this.nextId}`;
  }

  /** Adds an entry, or replaces the one with the same id in place. */
  upsert(entry: ChatEntry): void {
    const index = this.entries.findIndex((e) => e.id === entry.id);
    if (index >= 0) this.entries[index] = entry;
    else this.entries.push(entry);
    this.emit({ type: 'upsert', entry });
  }

  remove(id: string): void {
    const index = this.entries.findIndex((e) => e.id === id);
    if (index < 0) return;
    this.entries.splice(index, 1);
    this.emit({ type: 'remove', id });
  }

  /** Streams text onto an assistant or thinking entry. */
  appendText(id: string, delta: string): void {
    const entry = this.find(id);
    if (entry?.kind !== 'assistant' && entry?.kind !== 'thinking') return;
    entry.text += delta;
    this.emit({ type: 'textDelta', id, delta });
  }

  /** Replaces every entry at once (a resumed session); the caller sends the new snapshot. */
  replaceAll(entries: readonly ChatEntry[]): void {
    this.entries = [...entries];
  }

  /** Forgets every entry; the caller sends the new snapshot. */
  clear(): void {
    this.entries = [];
  }

  onMessage(listener: (message: ExtensionToWebview) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  emit(message: ExtensionToWebview): void {
    for (const listener of this.listeners) listener(message);
  }
}
