/**
 * How long a session with no model call yet waits before it starts the held work anyway: an editor
 * or a REPL waiting for the user's first message has the machine to itself by then.
 */
export const IDLE_START_MS = 1000;

/**
 * Session work the first model request does not need (the command sandbox's start, undo's warm-up
 * snapshot, the model catalogue's refresh), held until the first answer starts arriving: the request
 * is on the server then, so on a busy machine the work no longer delays it (`opendev -p` sends its
 * request hundreds of milliseconds sooner). Whatever needs that work before then starts it itself
 * (a command waits for the sandbox it runs in), so holding it changes when it runs, never what runs.
 */
export class FirstAnswerGate {
  private held: Array<() => void> | undefined = [];
  private readonly timer: NodeJS.Timeout;

  constructor(idleMs = IDLE_START_MS) {
    this.timer = setTimeout(() => this.open(), idleMs);
    // A short-lived process is never kept alive for held work.
    this.timer.unref();
  }

  /** Runs `work` now when the gate is open, else once it opens. */
  run(work: () => void): void {
    if (this.held) this.held.push(work);
    else work();
  }

  /** The first answer started (or a call ended without one): the held work runs, in order. */
  open(): void {
    const held = this.held;
    if (!held) return;
    this.held = undefined;
    clearTimeout(this.timer);
    for (const work of held) work();
  }
}
