/** Follow-up messages typed while the agent works; drained at iteration boundaries. Bounded (paper: 10). */
export class InjectionQueue {
  private readonly items: string[] = [];

  constructor(private readonly capacity = 10) {}

  /** False when the queue is full: the front end tells the user to wait. */
  push(text: string): boolean {
    if (this.items.length >= this.capacity) return false;
    this.items.push(text);
    return true;
  }

  drain(): string[] {
    return this.items.splice(0, this.items.length);
  }

  get size(): number {
    return this.items.length;
  }
}
