import type { FileChange } from '../../core/ui';

export interface RecentEdit extends FileChange {
  id: string;
}

/**
 * The before and after text of the latest edits, so a finished edit (auto-approved ones too)
 * can still be shown as a diff. Bounded by count and by total size: the oldest go first, and a
 * single edit larger than the whole budget is not kept at all.
 */
export class RecentEdits {
  private readonly edits: RecentEdit[] = [];
  private chars = 0;
  private next = 0;

  constructor(
    readonly maxEdits = 20,
    readonly maxChars = 8_000_000,
  ) {}

  /** Keeps an edit; returns its id, or undefined when it is too large to keep. */
  add(change: FileChange): string | undefined {
    const size = change.before.length + change.after.length;
    if (size > this.maxChars) return undefined;
    const edit: RecentEdit = { id: `edit-${++this.next}`, path: change.path, before: change.before, after: change.after };
    this.edits.push(edit);
    this.chars += size;
    while (this.edits.length > this.maxEdits || this.chars > this.maxChars) {
      const dropped = this.edits.shift()!;
      this.chars -= dropped.before.length + dropped.after.length;
    }
    return edit.id;
  }

  get(id: string): RecentEdit | undefined {
    return this.edits.find((e) => e.id === id);
  }

  latest(): RecentEdit | undefined {
    return this.edits.at(-1);
  }

  get size(): number {
    return this.edits.length;
  }

  get keptChars(): number {
    return this.chars;
  }
}
