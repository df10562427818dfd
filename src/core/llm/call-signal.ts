/**
 * Runs one SDK call on a signal of its own that follows `signal` and lets go of it when the call
 * ends. The openai SDK adds an abort listener to the signal it is given and never removes it: a
 * turn's signal shared by its many calls would keep one listener (and what it holds) per call, and
 * Node warns of a leak past ten. Both providers call through this, whatever their SDK's habit.
 */
export async function* withCallSignal<T>(signal: AbortSignal, call: (callSignal: AbortSignal) => AsyncIterable<T>): AsyncIterable<T> {
  const controller = new AbortController();
  const forward = () => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  try {
    yield* call(controller.signal);
  } finally {
    signal.removeEventListener('abort', forward);
  }
}
