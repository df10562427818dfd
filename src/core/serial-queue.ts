/**
 * Runs jobs one at a time in the order they were queued: one writer of a file, one question to the
 * user at a time. A failing job does not stop the ones after it.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;

  run<T>(job: () => Promise<T>): Promise<T> {
    this.queued++;
    const result = this.tail.then(job, job);
    this.tail = result.then(
      () => this.queued--,
      () => this.queued--,
    );
    return result;
  }

  /** Jobs queued or running. */
  get pending(): number {
    return this.queued;
  }

  /** Resolves when everything queued so far has finished. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}

/** One SerialQueue per key (a file, a lock), each forgotten once it has nothing left to run. */
export class KeyedSerialQueue {
  private readonly queues = new Map<string, SerialQueue>();

  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    let queue = this.queues.get(key);
    if (!queue) this.queues.set(key, (queue = new SerialQueue()));
    const result = queue.run(job);
    void queue.idle().then(() => {
      if (queue.pending === 0 && this.queues.get(key) === queue) this.queues.delete(key);
    });
    return result;
  }
}
