import type { SourceText } from './source-text';

/**
 * Code the model wrote, placed at `indent`: its own common indentation is removed first, blank
 * lines at either end are dropped, blank lines inside stay empty (no trailing spaces), and the
 * lines are joined with the file's line ending.
 */
export function reindent(content: string, indent: string, eol: string): string {
  const lines = content.split(/\r\n|\n|\r/);
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 0 && lines.at(-1)!.trim() === '') lines.pop();
  const common = commonIndent(lines);
  return lines.map((line) => (line.trim() === '' ? '' : indent + line.slice(common.length).replace(/\s+$/, ''))).join(eol);
}

/** The longest run of leading whitespace every non-blank line starts with. */
export function commonIndent(lines: readonly string[]): string {
  let common: string | undefined;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const indent = /^[ \t]*/.exec(line)![0];
    if (common === undefined) common = indent;
    else {
      let i = 0;
      while (i < common.length && i < indent.length && common[i] === indent[i]) i++;
      common = common.slice(0, i);
    }
  }
  return common ?? '';
}

/**
 * One level of indentation in this file: a tab when indented lines start with tabs, else the
 * most frequent step between a line and a deeper next one; `fallback` when nothing is indented.
 */
export function indentUnit(source: SourceText, fallback: string): string {
  const steps = new Map<string, number>();
  let tabs = 0;
  let spaces = 0;
  let previous: string | undefined;
  for (let n = 0; n < source.lineCount; n++) {
    const line = source.line(n);
    if (line.trim() === '') continue;
    const indent = source.indentOf(n);
    if (indent.startsWith('\t')) tabs++;
    else if (indent.startsWith(' ')) spaces++;
    if (previous !== undefined && indent.length > previous.length && indent.startsWith(previous)) {
      const step = indent.slice(previous.length);
      steps.set(step, (steps.get(step) ?? 0) + 1);
    }
    previous = indent;
  }
  if (tabs > spaces) return '\t';
  let best: string | undefined;
  for (const [step, count] of steps) if (/^ +$/.test(step) && (best === undefined || count > steps.get(best)!)) best = step;
  return best ?? fallback;
}
