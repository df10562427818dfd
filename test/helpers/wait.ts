// Waiting on what a test cannot await directly: a process to start or end, a state to be reached.
import { procStat } from '../../src/core/process/process-group';

/** Alive and not a zombie (some containers' PID 1 never reaps orphans, so killed orphans stay zombies). */
export function running(pid: number): boolean {
  const stat = procStat(pid);
  if (stat) return stat.state !== 'Z' && stat.state !== 'X';
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` every 20 ms until it holds; fails naming `what` after one generous limit (a loaded machine is slow, not wrong). */
export async function until(check: () => boolean, what = 'condition', ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
