import type { Transcript } from './transcript';

/**
 * Whether the chat is working, told to the view as `busy`: the running turn's AbortController,
 * whether it is only winding down (answered or stopped, still saving), the callers waiting for it
 * to be over, and the generation New Chat bumps so an older turn's late reports are dropped.
 */
export class ChatRunState {
  private current: AbortController | undefined;
  /** The running turn's agent has finished: what is sent now starts the next turn, not a follow-up. */
  private windingDown: AbortController | undefined;
  private idleWaiters: Array<() => void> = [];
  private gen = 0;

  constructor(private readonly entries: Transcript) {}

  get running(): AbortController | undefined {
    return this.current;
  }

  get busy(): boolean {
    return this.current !== undefined;
  }

  get generation(): number {
    return this.gen;
  }

  /** New Chat: whatever an older turn still reports is dropped, and nobody waits for it. */
  nextGeneration(): void {
    this.gen++;
    this.current = undefined;
    this.releaseIdle();
  }

  /** A turn starts (`controller`) or is over (undefined); the view's busy state follows. */
  set(controller: AbortController | undefined): void {
    this.current = controller;
    this.entries.emit({ type: 'busy', busy: controller !== undefined });
    if (!controller) this.releaseIdle();
  }

  /** The turn's agent has finished; it is still saving. */
  windDown(controller: AbortController): void {
    this.windingDown = controller;
  }

  /** Stopped or answered, still saving: a follow-up now would wait for a turn that reads no more. */
  get winding(): boolean {
    return this.current !== undefined && this.windingDown === this.current;
  }

  /** Resolves once no turn runs (at once when none does). */
  idle(): Promise<void> {
    return this.current ? new Promise<void>((resolve) => this.idleWaiters.push(resolve)) : Promise.resolve();
  }

  private releaseIdle(): void {
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
