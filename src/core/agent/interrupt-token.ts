import { setMaxListeners } from 'node:events';

/**
 * Carries a user's Stop from the front end into the running turn. A modal request (approval,
 * ask_user, plan review) takes priority: the first interrupt while one is open cancels only the
 * modal, so no menu is ever left orphaned; the next interrupt stops the turn.
 */
export class InterruptToken {
  private readonly controller = new AbortController();
  private modal: AbortController | undefined;

  constructor(parent?: AbortSignal) {
    // Every tool call of a long turn listens for Stop; many at once is expected, not a leak.
    setMaxListeners(1000, this.controller.signal);
    if (parent) {
      if (parent.aborted) this.controller.abort();
      else parent.addEventListener('abort', () => this.interrupt(), { once: true });
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get interrupted(): boolean {
    return this.controller.signal.aborted;
  }

  interrupt(): 'modal_cancelled' | 'interrupted' {
    if (this.modal && !this.modal.signal.aborted) {
      this.modal.abort();
      return 'modal_cancelled';
    }
    this.controller.abort();
    return 'interrupted';
  }

  /** Runs a blocking UI request with its own signal, aborted by an interrupt or the turn's end. */
  async modalRequest<T>(request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const modal = new AbortController();
    const onAbort = () => modal.abort();
    this.controller.signal.addEventListener('abort', onAbort, { once: true });
    this.modal = modal;
    try {
      return await request(modal.signal);
    } finally {
      this.controller.signal.removeEventListener('abort', onAbort);
      if (this.modal === modal) this.modal = undefined;
    }
  }
}
