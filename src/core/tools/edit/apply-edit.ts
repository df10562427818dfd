import { nonOverlapping, runEditChain } from './chain';
import { normalizeArgument, type TextReplacement } from './line-endings';
import { stripLineNumbers } from './line-numbers';
import type { FoundText, PassName } from './pass';
import { unescapeModelText } from './pass-escape-normalized';
import { indentShift, reindent, type IndentShift } from './reindent';
import { splitFindLines, TextLines } from './text-lines';
import { unquotedLines } from './unquoted-lines';

export interface EditRequest {
  /** The file's text: LF line endings, no BOM (see decodeText). */
  text: string;
  oldContent: string;
  newContent: string;
  replaceAll: boolean;
}

export interface PlannedReplacement extends TextReplacement {
  /** What the file held there. */
  found: string;
  /** 1-based line where the replaced text starts. */
  line: number;
}

export type EditPlan =
  | {
      ok: true;
      /** The whole new text (LF). */
      text: string;
      replacements: PlannedReplacement[];
      /** The pass that found old_content; `empty-file` when an empty file got its first content. */
      pass: PassName | 'empty-file';
      /** Set when new_content was re-indented to the indentation the file has at the match. */
      shift?: IndentShift;
      /** old_content carried line-number prefixes (copied from read_file) that were removed. */
      lineNumbersStripped: boolean;
    }
  | {
      ok: false;
      reason: 'identical' | 'empty_old' | 'not_found' | 'ambiguous' | 'no_change';
      /** ambiguous: the 1-based lines of every match; not_found: lines holding old_content's first line. */
      lines?: number[];
    }
  | {
      ok: false;
      /** An anchor pass matched a block whose lines the edit would drop or add unseen (see unquotedLines). */
      reason: 'unquoted';
      /** The block, 1-based first and last line. */
      block: [number, number];
      /** The block's lines old_content skipped and new_content does not have: they would be deleted unseen. */
      skipped: Array<{ line: number; text: string }>;
      /** old_content's lines the block does not have, which new_content keeps: they would be added as if kept. */
      invented: string[];
    };

/** The passes that may match a block whose middle lines differ from old_content. */
const ANCHOR_PASSES: ReadonlySet<PassName> = new Set(['block-anchor', 'context-aware']);

/**
 * Decides an edit without touching the disk: where old_content is (the nine passes), whether
 * that is unambiguous, and what goes there (new_content unescaped when old_content matched only
 * unescaped, and never otherwise; re-indented when a fuzzy pass matched lines indented
 * differently; newlines at its ends kept in step with what was matched).
 */
export function planEdit(request: EditRequest): EditPlan {
  let find = normalizeArgument(request.oldContent);
  let replacement = normalizeArgument(request.newContent);
  if (find === replacement) return { ok: false, reason: 'identical' };
  if (find === '') {
    // An empty old_content may only fill an empty file: it must never replace content silently.
    if (request.text !== '') return { ok: false, reason: 'empty_old' };
    return { ok: true, text: replacement, replacements: [{ start: 0, end: 0, replacement, found: '', line: 1 }], pass: 'empty-file', lineNumbersStripped: false };
  }

  const file = new TextLines(request.text);
  let chain = runEditChain(file, find);
  let lineNumbersStripped = false;
  if (!chain) {
    const stripped = stripLineNumbers(find);
    if (stripped !== undefined && stripped.trim() !== '') {
      chain = runEditChain(file, stripped);
      if (chain) {
        find = stripped;
        replacement = stripLineNumbers(replacement) ?? replacement;
        lineNumbersStripped = true;
      }
    }
  }
  if (!chain) return { ok: false, reason: 'not_found', lines: linesHoldingFirstLine(file, find) };
  if (chain.matches.length > 1 && !request.replaceAll) {
    return { ok: false, reason: 'ambiguous', lines: chain.matches.map((m) => file.lineAt(m.start) + 1) };
  }
  if (chain.pass === 'escape-normalized') {
    // old_content matched only once its escapes were undone: new_content was escaped the same way.
    find = unescapeModelText(find);
    replacement = unescapeModelText(replacement);
  }

  const chosen = request.replaceAll ? nonOverlapping(chain.matches) : chain.matches;
  if (ANCHOR_PASSES.has(chain.pass)) {
    for (const match of chosen) {
      const refusal = unquotedRefusal(file, find, replacement, match);
      if (refusal) return refusal;
    }
  }
  let shift: IndentShift | undefined;
  const replacements = chosen.map((match): PlannedReplacement => {
    const fuzzy = chain.pass !== 'simple';
    const matchShift = fuzzy && match.alignedOld ? indentShift(match.alignedOld, match.text.split('\n'), !!match.startsMidLine) : undefined;
    shift ??= matchShift;
    const text = matchShift ? reindent(replacement, matchShift, !!match.startsMidLine) : replacement;
    return { ...balanceNewlines(file.text, find, match, text), found: match.text, line: file.lineAt(match.start) + 1 };
  });

  const text = applyReplacements(file.text, replacements);
  if (text === file.text) return { ok: false, reason: 'no_change' };
  return { ok: true, text, replacements, pass: chain.pass, shift, lineNumbersStripped };
}

/**
 * A loose block match is refused when replacing it would delete a line old_content skipped (the
 * model never quoted it, and new_content does not have it) or keep a line old_content invented
 * (the file does not have it, new_content does): either way the model's picture of the block is
 * wrong, and the result would not be the edit it meant.
 */
function unquotedRefusal(file: TextLines, find: string, replacement: string, match: FoundText): Extract<EditPlan, { reason: 'unquoted' }> | undefined {
  const oldLines = splitFindLines(find);
  const blockLines = match.text.split('\n');
  const loose = unquotedLines(oldLines, blockLines);
  if (!loose) return undefined;
  const kept = new Set(splitFindLines(replacement).map((l) => l.trim()));
  const first = file.lineAt(match.start) + 1;
  const skipped = loose.skipped.filter((i) => !kept.has(blockLines[i]!.trim())).map((i) => ({ line: first + i, text: blockLines[i]!.trim() }));
  const invented = loose.invented.map((i) => oldLines[i]!.trim()).filter((text) => kept.has(text));
  if (skipped.length === 0 && invented.length === 0) return undefined;
  return { ok: false, reason: 'unquoted', block: [first, first + blockLines.length - 1], skipped, invented };
}

/**
 * When old_content ends (or starts) with newlines the match does not include, the match takes
 * the newlines that follow it in the file; at the end of the file, new_content drops as many
 * instead, so "x\n" → "y\n" on a last line without a newline does not add one.
 */
function balanceNewlines(text: string, find: string, match: FoundText, replacement: string): TextReplacement {
  let { start, end } = match;
  let out = replacement;
  let missing = trailingNewlines(find) - trailingNewlines(match.text);
  while (missing > 0 && text[end] === '\n') {
    end++;
    missing--;
  }
  for (; missing > 0 && out.endsWith('\n'); missing--) out = out.slice(0, -1);
  let missingLead = leadingNewlines(find) - leadingNewlines(match.text);
  for (; missingLead > 0 && out.startsWith('\n'); missingLead--) out = out.slice(1);
  return { start, end, replacement: out };
}

function trailingNewlines(s: string): number {
  let n = 0;
  while (n < s.length && s[s.length - 1 - n] === '\n') n++;
  return n;
}

function leadingNewlines(s: string): number {
  let n = 0;
  while (n < s.length && s[n] === '\n') n++;
  return n;
}

export function applyReplacements(text: string, replacements: readonly TextReplacement[]): string {
  const sorted = [...replacements].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const r of sorted) {
    out += text.slice(at, r.start) + r.replacement;
    at = r.end;
  }
  return out + text.slice(at);
}

/** For a not-found error: where old_content's first non-blank line occurs on its own (at most 5). */
function linesHoldingFirstLine(file: TextLines, find: string): number[] {
  const first = find.split('\n').find((l) => l.trim() !== '')?.trim();
  if (!first) return [];
  const out: number[] = [];
  file.trimmed.forEach((line, i) => {
    if (line === first && out.length < 5) out.push(i + 1);
  });
  return out;
}
