/** Commands of the inline diff approval. The hunk commands are internal (CodeLens only); the rest are in the palette. */
export const REVIEW_COMMANDS = {
  acceptHunk: 'opendev.review.acceptHunk',
  rejectHunk: 'opendev.review.rejectHunk',
  undoHunk: 'opendev.review.undoHunk',
  acceptAll: 'opendev.acceptAllChanges',
  rejectAll: 'opendev.rejectAllChanges',
  /** With an id (an approval card's, or a finished edit's): its diff; without: the last edit's. */
  showDiff: 'opendev.showEditDiff',
} as const;

/** Context keys for the editor title buttons: whether an edit waits for review, and which files. */
export const REVIEWING_KEY = 'opendev.reviewing';
export const REVIEWED_FILES_KEY = 'opendev.reviewedFiles';
