/**
 * One block of consecutive changed lines between two texts, with no context: the unit a user
 * accepts or rejects when reviewing an edit hunk by hunk. Lines keep their `\n`, so a change to
 * the final newline is a change like any other and applying every hunk gives `after` exactly.
 */
export interface ChangeHunk {
  /** 0-based, in order. */
  index: number;
  /** 0-based line in `before` where the hunk starts (for a pure insertion: the line it goes before). */
  beforeStart: number;
  /** 0-based line in `after` where the hunk starts. */
  afterStart: number;
  /** The lines it removes from `before`, each with its `\n` (the last line of a file may lack one). */
  removed: string[];
  /** The lines it puts in their place. */
  added: string[];
}
