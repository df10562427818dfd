import type { RetryInfo } from '../core/ui';
import type { Transcript } from './transcript';

/**
 * The chat's one line for a provider call being retried. Consecutive retries update the same line
 * (attempt, wait, reason) instead of stacking cards; "Retry now" cuts the current wait short through
 * the core's retry loop; the line goes as soon as a try answers (or the turn ends).
 */
export class RetryLine {
  private id: string | undefined;
  private retryNowHandle: (() => void) | undefined;

  constructor(private readonly transcript: Transcript) {}

  /** A retry is about to wait `info.delayMs`: the line shows it (one line, however many retries). */
  show(info: RetryInfo): void {
    this.id ??= this.transcript.newId();
    this.retryNowHandle = info.retryNow;
    this.transcript.upsert({
      kind: 'retry',
      id: this.id,
      attempt: info.attempt,
      maxAttempts: info.maxAttempts,
      delayMs: info.delayMs,
      reason: info.reason,
      waiting: true,
    });
  }

  /** "Retry now" from the view: false when that line is gone or its wait is already over. */
  retryNow(id: string): boolean {
    const entry = this.transcript.find(id);
    if (id !== this.id || entry?.kind !== 'retry' || !entry.waiting || !this.retryNowHandle) return false;
    const handle = this.retryNowHandle;
    this.retryNowHandle = undefined;
    this.transcript.upsert({ ...entry, waiting: false });
    handle();
    return true;
  }

  /** A try answered, or the turn is over: the line goes (the answer or the error card takes its place). */
  clear(): void {
    const id = this.id;
    this.id = undefined;
    this.retryNowHandle = undefined;
    if (id) this.transcript.remove(id);
  }
}
