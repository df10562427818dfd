/**
 * One search's time budget: aborts when the caller's signal does (the user pressed Stop) or when
 * the time limit passes, and remembers which of the two it was.
 */
export class SearchBudget {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onParentAbort = (): void => this.controller.abort();
  private expired = false;

  constructor(
    private readonly parent: AbortSignal,
    timeoutMs: number,
  ) {
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort();
    }, timeoutMs);
    this.timer.unref?.();
    if (parent.aborted) this.controller.abort();
    else parent.addEventListener('abort', this.onParentAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why the search stopped early, if it did. */
  get stopped(): 'timeout' | 'aborted' | undefined {
    if (this.parent.aborted) return 'aborted';
    return this.expired ? 'timeout' : undefined;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.parent.removeEventListener('abort', this.onParentAbort);
  }
}
