/**
 * OpenCode's overflow rule (peer expectations in shared/peer/compaction/opencode_compaction_cases.json),
 * for callers that know the model's output limit: the usable input is the input limit (or the whole
 * context) minus the output reservation (capped at 32,000, as OpenCode caps max output) and any
 * configured reserve, never below 0. A context of 0 means unknown: never overflow.
 */
export const OUTPUT_RESERVATION_CAP = 32_000;

export interface ModelLimit {
  context: number;
  input?: number;
  output: number;
}

export function usableContext(limit: ModelLimit, reserved = 0): number {
  if (limit.context <= 0) return 0;
  const base = limit.input ?? limit.context;
  return Math.max(0, base - Math.min(limit.output, OUTPUT_RESERVATION_CAP) - reserved);
}

export interface TokenCount {
  input: number;
  output: number;
  cacheRead?: number;
}

export function isOverflow(tokens: TokenCount, limit: ModelLimit, options: { auto?: boolean; reserved?: number } = {}): boolean {
  if (options.auto === false || limit.context <= 0) return false;
  const count = tokens.input + (tokens.cacheRead ?? 0) + tokens.output;
  return count > usableContext(limit, options.reserved);
}
