import { loadTemplateSections, renderTemplate } from '../../core/templates';

/**
 * What the palette actions put in the chat, built from plain editor data (no `vscode` here, so it
 * is unit-tested in Node). The wording lives in templates/editor/palette.md.
 */

/** A selection: its workspace-relative path, 1-based inclusive lines, language and text. */
export interface SelectionInfo {
  path: string;
  startLine: number;
  endLine: number;
  languageId: string;
  text: string;
}

/** One diagnostic, 1-based position. `source`/`code` as the language server gives them (`ts`, 2322). */
export interface ProblemInfo {
  line: number;
  column: number;
  severity: 'error' | 'warning';
  message: string;
  source?: string;
  code?: string | number;
}

/** Beyond this many diagnostics the prompt lists the first ones and says how many more there are. */
export const MAX_PROBLEMS = 50;

const TEMPLATE = 'editor/palette.md';

function section(name: string, vars: Record<string, string>): string {
  const text = loadTemplateSections(TEMPLATE).get(name);
  if (text === undefined) throw new Error(`templates/${TEMPLATE} has no "${name}" section`);
  return renderTemplate(text, vars);
}

/** "line 4" or "lines 3-7". */
function lines(s: SelectionInfo): string {
  return s.startLine === s.endLine ? section('line', { LINE: String(s.startLine) }) : section('lines', { START: String(s.startLine), END: String(s.endLine) });
}

/** The code in a fence longer than any backtick run inside it, so the block cannot end early. */
export function fenced(code: string, languageId: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${languageId}\n${code.replace(/\n$/, '')}\n${fence}`;
}

function selectionVars(s: SelectionInfo): Record<string, string> {
  return { PATH: s.path, LINES: lines(s), CODE: fenced(s.text, s.languageId) };
}

/** What Add Selection to Chat puts in the chat input: where the code is, and the code. */
export function selectionReference(s: SelectionInfo): string {
  return section('selection_reference', selectionVars(s));
}

/** The prompt Explain Selection sends. */
export function explainSelectionPrompt(s: SelectionInfo): string {
  return section('explain_selection', selectionVars(s));
}

/** The prompt Fix Problems in File sends: errors first, then warnings, each in file order. */
export function fixProblemsPrompt(path: string, problems: readonly ProblemInfo[]): string {
  return section('fix_problems', { PATH: path, PROBLEMS: problemLines(problems) });
}

/** The prompt of the "Fix with OpenDev" Code Action: the diagnostics at the code, and that code. */
export function fixDiagnosticsPrompt(code: SelectionInfo, problems: readonly ProblemInfo[]): string {
  return section('fix_diagnostics', { ...selectionVars(code), PROBLEMS: problemLines(problems) });
}

/** The prompt "Explain with OpenDev" sends for text selected in a terminal. */
export function explainTerminalPrompt(text: string): string {
  return section('explain_terminal', { CODE: fenced(text, 'text') });
}

/** One line per problem, errors first, then warnings, each in file order; at most MAX_PROBLEMS. */
function problemLines(problems: readonly ProblemInfo[]): string {
  const rank = (p: ProblemInfo) => (p.severity === 'error' ? 0 : 1);
  const sorted = [...problems].sort((a, b) => rank(a) - rank(b) || a.line - b.line || a.column - b.column);
  const listed = sorted.slice(0, MAX_PROBLEMS).map((p) =>
    section('problem', {
      LINE: String(p.line),
      COLUMN: String(p.column),
      SEVERITY: p.severity,
      SOURCE: p.source ? ` (${p.source}${p.code !== undefined ? ` ${p.code}` : ''})` : '',
      // One line per problem: a multi-line message (TypeScript's chains) is joined.
      MESSAGE: p.message.replace(/\s*\n\s*/g, ' ').trim(),
    }),
  );
  if (sorted.length > MAX_PROBLEMS) listed.push(section('problems_more', { COUNT: String(sorted.length - MAX_PROBLEMS) }));
  return listed.join('\n');
}
