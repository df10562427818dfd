import type { FileChange } from '../../core/ui';
import type { RequestCompanion } from '../pending-requests';

/**
 * What the chat needs from the inline diff approval: a companion for edit approvals (the diff
 * editor and its CodeLens) and a place to keep finished edits for "Show diff".
 */
export interface EditReviewPort extends RequestCompanion {
  /** Keeps the edit's before/after (bounded); returns the id "Show diff" opens it by, or undefined. */
  recordEdit(change: FileChange): string | undefined;
}
