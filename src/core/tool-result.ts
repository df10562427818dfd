// What a tool call returns, and the typed failure every tool (and what tools build on) throws.

/** A file's text before and after an edit, as the tool compares it (edit_file: LF endings, no BOM); `path` is absolute. */
export interface FileChange {
  path: string;
  before: string;
  after: string;
}

/**
 * The recovery classes of the paper's error-recovery system, plus `rejected` (the user denied the
 * call: the agent must not retry it), `too_large` (a file over a tool's size limit: the error names
 * the tool to use instead) and `other`.
 */
export type ToolErrorKind =
  | 'permission'
  | 'rejected'
  | 'not_found'
  | 'edit_mismatch'
  | 'syntax'
  | 'rate_limit'
  | 'timeout'
  | 'too_large'
  | 'other';

export interface ToolResult {
  ok: boolean;
  /** What the model reads. */
  output: string;
  /** One line (50–200 chars) for the UI card and for aged context. */
  summary: string;
  errorKind?: ToolErrorKind;
  /** What an edit did to a file, for front ends that offer its diff afterwards; never sent to the model. */
  change?: FileChange;
}

/** A tool failure the model can act on: the class decides which recovery guidance applies. */
export class ToolError extends Error {
  constructor(
    readonly kind: ToolErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export function toolFailure(kind: ToolErrorKind, message: string): ToolResult {
  return { ok: false, output: `Error (${kind}): ${message}`, summary: summaryLine(`✗ ${kind}: ${message}`), errorKind: kind };
}

const MAX_SUMMARY_CHARS = 200;

/** A summary as the UI card and aged context need it: one line, at most 200 characters. */
export function summaryLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_SUMMARY_CHARS ? `${line.slice(0, MAX_SUMMARY_CHARS - 1)}…` : line;
}
