/**
 * The wait after a child has exited for its pipes to close, which a background grandchild may hold
 * open: `then` runs `ms` later unless cancelled. Timers run before the event loop reads the pipes,
 * so after a stall (a loaded machine) what the child printed before it exited may still be waiting
 * unread when the timer fires; `then` runs only after the next read (setImmediate), so that output
 * is never cut off.
 */
export function afterExitGrace(ms: number, then: () => void): { cancel(): void } {
  let cancelled = false;
  const timer = setTimeout(() => setImmediate(() => cancelled || then()), ms);
  return {
    cancel: () => {
      cancelled = true;
      clearTimeout(timer);
    },
  };
}
