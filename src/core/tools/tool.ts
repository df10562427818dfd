import type { z } from 'zod';

/** The recovery classes of the paper's error-recovery system, plus `other`. */
export type ToolErrorKind =
  | 'permission'
  | 'not_found'
  | 'edit_mismatch'
  | 'syntax'
  | 'rate_limit'
  | 'timeout'
  | 'other';

export interface ToolResult {
  ok: boolean;
  /** What the model reads. */
  output: string;
  /** One line (50–200 chars) for the UI card and for aged context. */
  summary: string;
  errorKind?: ToolErrorKind;
}

export type ToolCategory = 'file' | 'search' | 'process' | 'web' | 'symbol' | 'todo' | 'user' | 'agent' | 'meta';

/** Cross-cutting services a tool may use. Grows with later features (approval, undo, session…). */
export interface ToolExecutionContext {
  workspaceRoot: string;
  signal: AbortSignal;
}

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  category: ToolCategory;
  readOnly: boolean;
  schema: S;
  run(args: z.infer<S>, ctx: ToolExecutionContext): Promise<ToolResult>;
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
  const summary = `✗ ${kind}: ${message}`;
  return { ok: false, output: `Error (${kind}): ${message}`, summary: summary.slice(0, 200), errorKind: kind };
}
