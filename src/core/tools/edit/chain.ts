import type { EditPass, FoundText, PassName } from './pass';
import { blockAnchorPass } from './pass-block-anchor';
import { contextAwarePass } from './pass-context-aware';
import { escapeNormalizedPass } from './pass-escape-normalized';
import { indentationFlexiblePass } from './pass-indentation-flexible';
import { lineTrimmedPass } from './pass-line-trimmed';
import { multiOccurrencePass } from './pass-multi-occurrence';
import { simplePass } from './pass-simple';
import { trimmedBoundaryPass } from './pass-trimmed-boundary';
import { whitespaceNormalizedPass } from './pass-whitespace-normalized';
import type { TextLines } from './text-lines';

/** Appendix D, in order: the first pass that finds anything decides. */
export const EDIT_PASSES: readonly EditPass[] = [
  simplePass,
  lineTrimmedPass,
  blockAnchorPass,
  whitespaceNormalizedPass,
  indentationFlexiblePass,
  escapeNormalizedPass,
  trimmedBoundaryPass,
  contextAwarePass,
  multiOccurrencePass,
];

export interface ChainMatch {
  pass: PassName;
  /** Distinct places, in file order; overlapping ones included (they make an edit ambiguous). */
  matches: FoundText[];
}

/**
 * Runs the passes in order and returns the first one's matches. Later, looser passes never get to
 * disambiguate an earlier pass's several matches: picking one of them would be a guess.
 * Whitespace-only old_content is only ever matched exactly.
 */
export function runEditChain(file: TextLines, find: string, passes: readonly EditPass[] = EDIT_PASSES): ChainMatch | undefined {
  for (const pass of passes) {
    if (pass !== simplePass && find.trim() === '') break;
    const found = distinct(pass.find(file, find));
    if (found.length > 0) return { pass: pass.name, matches: found };
  }
  return undefined;
}

function distinct(found: FoundText[]): FoundText[] {
  const seen = new Set<string>();
  return found
    .filter((m) => {
      const key = `${m.start}:${m.end}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The matches replace_all changes: left to right, skipping any that overlaps one already taken. */
export function nonOverlapping(matches: readonly FoundText[]): FoundText[] {
  const out: FoundText[] = [];
  for (const m of matches) {
    const prev = out[out.length - 1];
    if (!prev || m.start >= prev.end) out.push(m);
  }
  return out;
}
