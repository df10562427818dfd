import type { ToolResult } from '../tool';
import { MAX_OUTPUT_CHARS } from './limits';
import type { SearchLine, SearchOutcome } from './results';

export interface FormatOptions {
  /** How the query is named in the output: `/regex/` or `ast pattern "…"`. */
  query: string;
  /** The searched path as the user gave it, workspace-relative. */
  where: string;
  maxResults: number;
  /** Said when nothing matched, e.g. which files were searched. */
  noMatchHint: string;
  /** Appended to the summary, e.g. "(built-in search)". */
  summaryNote?: string;
}

/**
 * Renders matches grouped by file, like `rg -n`: `12: text` is a match line, `11- text` context,
 * `13| text` a further line of a multi-line (ast) match, `--` separates blocks. At most `maxResults` matches and 30,000 characters; when
 * more matched, the footer says how many and how to narrow the search.
 */
export function formatOutcome(outcome: SearchOutcome, options: FormatOptions): ToolResult {
  const notices = outcome.notices.map((n) => `Note: ${n}`);
  if (outcome.stopped) notices.push(stoppedNotice(outcome));

  if (outcome.totalMatches === 0) {
    const head = [...notices, `No matches for ${options.query} in ${options.where}. ${options.noMatchHint}`];
    return {
      ok: true,
      output: head.join('\n'),
      summary: clip(`✓ 0 matches${options.summaryNote ? ` ${options.summaryNote}` : ''}${outcome.stopped ? ` (${outcome.stopped})` : ''}`),
    };
  }

  const sections: string[] = [];
  let used = notices.join('\n').length + 400;
  let shownMatches = 0;
  let shownFiles = 0;
  let cutByChars = false;
  for (const file of outcome.files) {
    if (shownMatches === options.maxResults || cutByChars) break;
    const width = String(Math.max(...file.blocks.flat().map((l) => l.line))).length;
    const blocks: string[] = [];
    used += file.path.length + 2;
    for (const block of file.blocks) {
      const lines: string[] = [];
      for (const line of block) {
        if (line.kind === 'match' && shownMatches === options.maxResults) break;
        const text = renderLine(line, width);
        if (used + text.length + 1 > MAX_OUTPUT_CHARS) {
          cutByChars = true;
          break;
        }
        used += text.length + 1;
        if (line.kind === 'match') shownMatches++;
        lines.push(text);
      }
      if (lines.length > 0) blocks.push(lines.join('\n'));
      used += 3;
      if (cutByChars || shownMatches === options.maxResults) break;
    }
    if (blocks.length === 0) break;
    sections.push(`${file.path}\n${blocks.join('\n--\n')}`);
    shownFiles++;
  }

  const total = plural(outcome.totalMatches, 'match', 'matches');
  const inFiles = plural(outcome.totalFiles, 'file', 'files');
  const parts = [...notices, `${total} in ${inFiles} for ${options.query} in ${options.where}.`, '', sections.join('\n\n')];
  if (shownMatches < outcome.totalMatches) {
    const limit = cutByChars ? `the ${MAX_OUTPUT_CHARS.toLocaleString('en-US')}-character output limit` : `the limit of ${options.maxResults} matches`;
    parts.push(
      '',
      `[Showing ${shownMatches} of ${outcome.totalMatches.toLocaleString('en-US')} matches (${shownFiles} of ${outcome.totalFiles.toLocaleString('en-US')} files) because of ${limit}; ` +
        `${(outcome.totalMatches - shownMatches).toLocaleString('en-US')} more matched. Narrow the search: a more specific pattern, a sub-folder or file as path, or a glob such as "*.ts" or "src/**/*.ts".]`,
    );
  }
  const showing = shownMatches < outcome.totalMatches ? `, showing ${shownMatches}` : '';
  const note = options.summaryNote ? ` ${options.summaryNote}` : '';
  const stopped = outcome.stopped ? ` (${outcome.stopped}, partial)` : '';
  return { ok: true, output: parts.join('\n'), summary: clip(`✓ ${total} in ${inFiles}${showing}${note}${stopped}`) };
}

function renderLine(line: SearchLine, width: number): string {
  const marker = line.kind === 'context' ? '-' : line.kind === 'continuation' ? '|' : ':';
  return `${String(line.line).padStart(width)}${marker} ${line.text}`;
}

function stoppedNotice(outcome: SearchOutcome): string {
  return outcome.stopped === 'timeout'
    ? 'Warning: the search stopped at its 30 s time limit, so the results below are incomplete. Narrow it with a sub-folder as path or a glob.'
    : 'Warning: the search was interrupted, so the results below are incomplete.';
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
