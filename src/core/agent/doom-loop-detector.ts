import { createHash } from 'node:crypto';
import type { ToolCall } from '../messages';

const WINDOW = 20;
const THRESHOLD = 3;

export type DoomVerdict =
  | { kind: 'ok' }
  /** First time over the threshold: warn the model and skip the turn's tools. */
  | { kind: 'warn'; toolName: string; count: number }
  /** It repeated again after the warning: ask the user to allow or abort. */
  | { kind: 'pause'; toolName: string; count: number };

/**
 * Fingerprints every tool call (MD5 of name + arguments) in a sliding window of 20. A fingerprint
 * seen 3 times triggers a warning; seen again after that warning, a pause for the user.
 */
export class DoomLoopDetector {
  private readonly window: string[] = [];
  private readonly warned = new Set<string>();

  check(calls: readonly ToolCall[]): DoomVerdict {
    let verdict: DoomVerdict = { kind: 'ok' };
    for (const call of calls) {
      const print = fingerprint(call);
      this.window.push(print);
      if (this.window.length > WINDOW) this.window.shift();
      const count = this.window.filter((p) => p === print).length;
      if (count < THRESHOLD) continue;
      if (this.warned.has(print)) return { kind: 'pause', toolName: call.name, count };
      this.warned.add(print);
      verdict = { kind: 'warn', toolName: call.name, count };
    }
    return verdict;
  }

  /** The user allowed the repeated calls: they run this once, and counting starts afresh (re-armed). */
  allowOnce(calls: readonly ToolCall[]): void {
    for (const call of calls) this.forget(fingerprint(call));
  }

  /** The user aborted: start over with a clean window. */
  reset(): void {
    this.window.length = 0;
    this.warned.clear();
  }

  private forget(print: string): void {
    this.warned.delete(print);
    for (let i = this.window.length - 1; i >= 0; i--) if (this.window[i] === print) this.window.splice(i, 1);
  }
}

/** Arguments are canonicalised (keys sorted) so `{a,b}` and `{b,a}` count as the same call. */
export function fingerprint(call: ToolCall): string {
  let args = call.arguments.trim();
  try {
    args = JSON.stringify(sortKeys(JSON.parse(args)));
  } catch {
    // Malformed JSON is fingerprinted verbatim.
  }
  return createHash('md5').update(`${call.name}\u0000${args}`).digest('hex');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}
